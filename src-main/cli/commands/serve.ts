import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWsHost } from '../../host/ws/ws-host';
import { createRuntime } from '../../runtime/runtime';
import { cliSignInOpener } from '../sign-in-opener';
import { parseCommandArgs } from '../parse-args';
import { isLoopbackHost, listenFailure, networkWarning } from '../serve-listen';
import { EXIT, UsageError } from '../usage-error';

/**
 * The built renderer is out/renderer; this module is out/main/cli.js or a chunk of it
 * in out/main/chunks/, so look in both places.
 */
function rendererDir(): string {
  const candidates = ['../renderer', '../../renderer'].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[0] as string);
}

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseCommandArgs('serve', args, {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a port number (0-65535), got "${values.port}"`);
  }
  const staticDir = rendererDir();
  if (!existsSync(`${staticDir}/index.html`)) {
    throw new UsageError(
      `the UI is not built (${staticDir} is missing): run \`npm run build\` first`,
    );
  }
  const token = process.env['WORKBENCH_SERVE_TOKEN'];
  if (token !== undefined && token.length < 16) {
    throw new UsageError(
      'WORKBENCH_SERVE_TOKEN must be at least 16 characters (or unset it for a random token)',
    );
  }
  const runtime = createRuntime({ openUrl: cliSignInOpener() });
  let host;
  try {
    host = await startWsHost({
      runtime,
      host: values.host,
      port,
      staticDir,
      ...(token ? { token } : {}),
    });
  } catch (error) {
    await runtime.dispose();
    // a port in use or a wrong address is the user's to fix: one line, exit 2, no stack
    const reason = await listenFailure(error, values.host, port);
    throw reason === undefined ? error : new UsageError(reason);
  }
  if (!isLoopbackHost(values.host)) process.stderr.write(networkWarning(values.host, host.port));
  process.stderr.write(
    token
      ? 'The token comes from WORKBENCH_SERVE_TOKEN: the URL stays the same after a restart.\n'
      : 'The token is new at every start: after a restart, open the new URL (or set WORKBENCH_SERVE_TOKEN to keep one).\n',
  );
  process.stderr.write(
    `Agent Workbench is serving on ${values.host}; open this URL in a browser:\n`,
  );
  process.stdout.write(`${host.url}\n`);
  if (host.sandboxMcpUrl) {
    process.stderr.write(
      `The sandbox MCP server (streamable HTTP) is at ${host.sandboxMcpUrl} with the header "Authorization: Bearer <the token of the URL>".\n`,
    );
  }

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stderr.write('Stopping: finishing runs and closing connections...\n');
  await runtime.dispose();
  await host.close();
  return EXIT.finished;
}
