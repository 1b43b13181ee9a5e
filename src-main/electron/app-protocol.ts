/**
 * Serves the renderer from `app://workbench/` instead of file:// (Electron security
 * checklist item 18), with the path kept inside the bundle and the CSP as a header.
 */
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../host/csp';
import { resolveInside } from '../host/ws/static-files';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://workbench`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'workbench') return new Response('Not found', { status: 404 });
    const wanted = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = resolveInside(rendererDir, wanted);
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString()).catch(() => null);
    if (!response || !response.ok) return new Response('Not found', { status: 404 });
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', CONTENT_SECURITY_POLICY);
    headers.set('x-content-type-options', 'nosniff');
    return new Response(response.body, { status: 200, headers });
  });
}
