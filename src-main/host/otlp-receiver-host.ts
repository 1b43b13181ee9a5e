/**
 * The OTLP receiver of a host (docs/telemetry.md, "In: an OTLP receiver"), the one place
 * both hosts take it from (host-context.ts), so the desktop app and `serve` receive alike:
 *
 * - `[telemetry] receiver_port` set: a loopback HTTP server of its own on
 *   127.0.0.1:PORT answering `/v1/traces` (with `receiver_token`, only senders with
 *   `Authorization: Bearer TOKEN`). A port that cannot be had is said once on stderr;
 *   the app goes on without it.
 * - `mountable(isToken)`: the receiver a host mounts on its own server (`serve`, with its
 *   token).
 *
 * Each received trace's run is announced to the host's pages (`onRun`), and the
 * receiver's counts are what `telemetry:status` shows.
 */
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Runtime } from '../runtime/runtime';
import { createOtlpReceiver, type OtlpReceiver } from '../runtime/telemetry/otlp-receiver';
import { setHostedReceiver } from './telemetry-handlers';

export interface OtlpHosting {
  /** a receiver for the host's own HTTP server, behind its token */
  mountable(isToken: (given: string) => boolean, url: () => string): OtlpReceiver;
  /** the receiver_port server's base URL, once it listens */
  readonly ownUrl: string | undefined;
  /** resolves when the receiver_port server listens (or could not) */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function hostOtlpReceiver(runtime: Runtime, onRun: (runId: string) => void): OtlpHosting {
  const history = runtime.runs.history;
  const settings = telemetrySettings(runtime);
  let server: Server | undefined;
  let ownUrl: string | undefined;
  let ready: Promise<void> = Promise.resolve();
  let port = settings?.receiver_port;
  let token: string | undefined;
  try {
    token = resolveToken(settings?.receiver_token);
  } catch (error) {
    console.error(`[workbench] OTLP receiver not started: ${(error as Error).message}`);
    port = undefined;
  }
  if (port !== undefined) {
    const receiver = createOtlpReceiver({
      history,
      onRun,
      ...(token !== undefined ? { isToken: (given) => sameText(given, token) } : {}),
    });
    const own = createServer((req, res) => {
      if (!receiver.handle(req, res)) {
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('The workbench OTLP receiver answers POST /v1/traces only.');
      }
    });
    server = own;
    ready = new Promise<void>((resolve) => {
      own.once('error', (error: NodeJS.ErrnoException) => {
        console.error(
          `[workbench] OTLP receiver: cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}); change [telemetry] receiver_port. Traces are not received there.`,
        );
        server = undefined;
        resolve();
      });
      own.listen(port, '127.0.0.1', () => {
        ownUrl = `http://127.0.0.1:${port}`;
        setHostedReceiver(runtime, {
          receiver,
          url: `${ownUrl}${receiver.path}`,
          needsToken: token !== undefined,
        });
        resolve();
      });
    });
  }
  return {
    mountable(isToken, url) {
      const receiver = createOtlpReceiver({ history, isToken, onRun });
      // the status names the receiver_port one when there is one
      if (port === undefined) {
        setHostedReceiver(runtime, {
          receiver,
          get url() {
            return `${url()}${receiver.path}`;
          },
          needsToken: true,
        });
      }
      return receiver;
    },
    get ownUrl() {
      return ownUrl;
    },
    ready,
    async close() {
      setHostedReceiver(runtime, undefined);
      const open = server;
      server = undefined;
      if (!open) return;
      await new Promise<void>((resolve) => {
        open.close(() => resolve());
        open.closeAllConnections();
      });
    },
  };
}

function telemetrySettings(runtime: Runtime) {
  try {
    return runtime.services.loadConfig().telemetry;
  } catch {
    return undefined; // a config that does not load: the error is shown elsewhere
  }
}

function resolveToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!value.startsWith('env:')) return value;
  const name = value.slice(4);
  const resolved = process.env[name];
  if (resolved === undefined || resolved === '') {
    throw new Error(
      `[telemetry] receiver_token = "${value}": the environment variable ${name} is not set (set it, or put the token itself)`,
    );
  }
  return resolved;
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
