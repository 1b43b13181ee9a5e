/**
 * `workbench serve`'s route for a run's stored images (issue 17):
 * `GET /run-images/<runId>/<ref>?token=...`. The token is the WebSocket's (an <img> can
 * send no header). The run id and the ref must match their exact patterns before any
 * path is built (a ref is `<sha256>.<png|jpg|gif|webp>`: no separator, no `..`, never
 * absolute), and the answer's type comes from the ref's extension, which the store chose
 * from the bytes themselves; `nosniff` keeps the browser to it. SVG is never served.
 */
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRunId } from '@shared/domain/ids';
import { imageRefType } from '@shared/image-ref';
import { IMAGE_PATH, TOKEN_PARAM } from '@shared/ws-protocol';

export interface ImageRouteDeps {
  /** the stored image's file, or undefined for a bad id or ref */
  imagePath(runId: string, ref: string): string | undefined;
  isToken(given: string): boolean;
}

/** Answers the request when it is for the image route; false leaves it to the next route. */
export function serveRunImage(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ImageRouteDeps,
): boolean {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  if (!url.pathname.startsWith(`${IMAGE_PATH}/`)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return true;
  }
  if (!deps.isToken(url.searchParams.get(TOKEN_PARAM) ?? '')) {
    refuse(res, 401, 'Unauthorized');
    return true;
  }
  const parts = url.pathname.slice(IMAGE_PATH.length + 1).split('/');
  const [runId, ref] = parts.length === 2 ? parts.map(decode) : [];
  const type = ref === undefined ? undefined : imageRefType(ref);
  if (runId === undefined || ref === undefined || !isRunId(runId) || !type) {
    refuse(res, 400, 'Not an image reference');
    return true;
  }
  const file = deps.imagePath(runId, ref);
  const size = file === undefined ? undefined : fileSize(file);
  if (file === undefined || size === undefined) {
    refuse(res, 404, 'Not found');
    return true;
  }
  res.writeHead(200, {
    'content-type': type,
    'content-length': size,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'referrer-policy': 'no-referrer',
    // named by its content: the same ref always has the same bytes
    'cache-control': 'private, max-age=31536000, immutable',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
  return true;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function fileSize(file: string): number | undefined {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

function refuse(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, { 'content-type': 'text/plain', 'x-content-type-options': 'nosniff' })
    .end(text);
}
