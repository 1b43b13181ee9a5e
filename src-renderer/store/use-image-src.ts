import { useEffect, useState } from 'react';
import { useBridge, useWorkbench } from './StoreProvider';

export type ImageSrc =
  { status: 'loading' } | { status: 'ready'; src: string } | { status: 'failed'; error: string };

/**
 * The `src` of an image the selected run's history kept: the host's address at once in
 * browser mode, else loaded over the contract. Only rows that show an image call it.
 */
export function useImageSrc(ref: string): ImageSrc {
  const runId = useWorkbench((s) => s.selectedRunId);
  const images = useBridge().images;
  const direct = runId ? images.url(runId, ref) : undefined;
  const [loaded, setLoaded] = useState<{ key: string; value: ImageSrc } | null>(null);
  const key = `${runId ?? ''}/${ref}`;
  useEffect(() => {
    if (direct !== undefined || !runId) return;
    let isCurrent = true;
    images.load(runId, ref).then(
      (src) => isCurrent && setLoaded({ key, value: { status: 'ready', src } }),
      (error: unknown) =>
        isCurrent &&
        setLoaded({
          key,
          value: {
            status: 'failed',
            error: error instanceof Error ? error.message : String(error),
          },
        }),
    );
    return () => {
      isCurrent = false;
    };
  }, [direct, images, key, ref, runId]);
  if (direct !== undefined) return { status: 'ready', src: direct };
  return loaded?.key === key ? loaded.value : { status: 'loading' };
}
