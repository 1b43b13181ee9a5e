/**
 * Where the page gets a run's stored images (issue 17). In browser mode an <img> loads
 * them from the serving host's image route (lazily, cached by the browser, no base64
 * through the socket); in the desktop window, whose page is a file, they come over the
 * contract (`runs:image`) and become data: URLs, which the CSP allows. A few recent ones
 * are kept so scrolling back does not fetch them again.
 */
import type { AppApi } from '@shared/ipc';

export interface ImageSource {
  /** an address the page can load directly, when the transport has one */
  url(runId: string, ref: string): string | undefined;
  /** the image as a data: URL over the contract */
  load(runId: string, ref: string): Promise<string>;
}

/** data: URLs kept (a screenshot is up to a few MB as base64) */
const KEPT = 16;

export function createImageSource(
  api: Pick<AppApi, 'getRunImage'> & { imageUrl?: (runId: string, ref: string) => string },
): ImageSource {
  const cache = new Map<string, Promise<string>>();
  return {
    url: (runId, ref) => api.imageUrl?.(runId, ref),
    load(runId, ref) {
      const key = `${runId}/${ref}`;
      let loaded = cache.get(key);
      if (loaded) {
        // most recently used last: the oldest goes first
        cache.delete(key);
        cache.set(key, loaded);
        return loaded;
      }
      loaded = api
        .getRunImage({ runId, ref })
        .then((image) => `data:${image.mimeType};base64,${image.data}`);
      loaded.catch(() => cache.delete(key));
      cache.set(key, loaded);
      if (cache.size > KEPT) cache.delete(cache.keys().next().value!);
      return loaded;
    },
  };
}
