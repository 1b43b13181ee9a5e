/**
 * Serves the built renderer from one folder. The resolved path must stay inside that
 * folder (no `..`, encoded traversal or absolute paths), and every page carries the
 * same Content-Security-Policy as the desktop window.
 */
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../csp';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Resolves a URL path inside `root`, or returns null if it would leave it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const realRoot = realpathSync(root);
  const candidate = resolve(realRoot, '.' + (decoded.startsWith('/') ? decoded : `/${decoded}`));
  if (candidate !== realRoot && !candidate.startsWith(realRoot + sep)) return null;
  try {
    // Follow symlinks and check again: a link inside the folder may point outside it.
    const real = realpathSync(candidate);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) return null;
    return real;
  } catch {
    return candidate; // does not exist; the caller answers 404
  }
}

export function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const pathname = new URL(req.url ?? '/', 'http://placeholder').pathname;
  const wanted = pathname === '/' ? '/index.html' : pathname;
  const file = resolveInside(root, wanted);
  const stats = file ? safeStat(file) : null;
  if (!file || !stats?.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, {
    'content-type': type,
    'content-length': stats.size,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': file.endsWith('.html') ? 'no-store' : 'public, max-age=3600',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

function safeStat(file: string) {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}
