/**
 * The redirect target of an OAuth sign-in (RFC 8252 section 7.3): a one-shot HTTP
 * listener on 127.0.0.1 that takes the authorization code the browser brings back,
 * checks the `state` it was sent with, answers the browser with a short page and closes.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { abortError } from '../../util/abort';

export const CALLBACK_PATH = '/callback';

/** A free port on 127.0.0.1: PREFERRED when it can be bound, else one the system picks. */
export async function freeLoopbackPort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(null));
      probe.listen(port, '127.0.0.1', () => {
        const address = probe.address();
        const bound = typeof address === 'object' && address ? address.port : null;
        probe.close(() => resolve(bound));
      });
    });
  if (preferred) {
    const port = await tryPort(preferred);
    if (port) return port;
  }
  const port = await tryPort(0);
  if (!port) throw new Error('no free port on 127.0.0.1 for the OAuth sign-in redirect');
  return port;
}

export interface LoopbackWait {
  /** the code, once the browser came back; rejects on an error answer, a timeout or the signal */
  code: Promise<string>;
  close(): void;
}

/** Listens on PORT until one callback carrying STATE arrives (or the wait ends). */
export async function awaitAuthorizationCode(
  port: number,
  state: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<LoopbackWait> {
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | null = null;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error');
    const got = url.searchParams.get('code');
    if (url.searchParams.get('state') !== state) {
      // not the sign-in this listener waits for (an old tab): keep waiting
      page(res, 400, 'This sign-in link is out of date. Start the sign-in again.');
      return;
    }
    if (error) {
      const description = url.searchParams.get('error_description');
      page(res, 400, 'The sign-in was refused. You may close this tab.');
      finish(
        new Error(
          `the authorization server refused: ${error}${description ? ` (${description})` : ''}`,
        ),
      );
      return;
    }
    if (!got) {
      page(res, 400, 'The sign-in came back without a code.');
      finish(new Error('the authorization server sent no code'));
      return;
    }
    page(
      res,
      200,
      'Signed in to the MCP server. You may close this tab and go back to Agent Workbench.',
    );
    finish(null, got);
  });
  const timer = setTimeout(
    () =>
      finish(
        new Error(`nobody completed the sign-in within ${Math.round(options.timeoutMs / 1000)} s`),
      ),
    options.timeoutMs,
  );
  const onAbort = () => finish(abortError(options.signal!));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  function finish(error: Error | null, value?: string): void {
    if (!settle) return;
    const { resolve, reject } = settle;
    settle = null;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.close();
    server.closeAllConnections?.();
    if (error) reject(error);
    else resolve(value!);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  if (options.signal?.aborted) onAbort();
  return { code, close: () => finish(new Error('the sign-in was abandoned')) };
}

function page(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
  res.end(`<!doctype html><title>Agent Workbench</title><p>${text}</p>`);
}
