/**
 * The Docker probe behind `sandbox:status` against engines that misbehave, served on a
 * unix socket so the shared Docker engine of this machine is never frozen for a test.
 * Issue 12 item 10: the status said "available" while the engine was frozen.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDockerProbe } from './sandbox-status';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An engine that answers the paths in `answers` and leaves every other request hanging. */
async function fakeEngine(answers: Record<string, unknown>): Promise<string> {
  const socketPath = join(mkdtempSync(join(tmpdir(), 'wb-engine-')), 'docker.sock');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://engine').pathname.replace(/^\/v[\d.]+/, '');
    if (path in answers) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[path]));
    }
    // otherwise: never answer, like a daemon stuck on a lock or stopped with SIGSTOP
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return socketPath;
}

const probeOf = (socketPath: string) =>
  createDockerProbe({ timeoutMs: 500, cacheMs: 0, connection: { socketPath } });

describe('the Docker probe of sandbox:status', () => {
  it('says available when the engine answers version and container requests', async () => {
    const socketPath = await fakeEngine({
      '/version': { Version: '99.0' },
      '/containers/json': [],
    });
    expect(await probeOf(socketPath)()).toEqual({ isAvailable: true, version: '99.0' });
  });

  it('says unavailable when the engine answers /version but container requests hang', async () => {
    const socketPath = await fakeEngine({ '/version': { Version: '99.0' } });
    const started = performance.now();
    const state = await probeOf(socketPath)();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(state.isAvailable).toBe(false);
    expect(state.error).toMatch(/Docker 99\.0 answers but does not handle container requests/);
    expect(state.error).toMatch(/engine seems stuck/);
  });

  it('says unavailable, within its timeout, when the engine answers nothing at all', async () => {
    const socketPath = await fakeEngine({});
    const started = performance.now();
    const state = await probeOf(socketPath)();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(state).toMatchObject({
      isAvailable: false,
      error: expect.stringMatching(/^Docker is not available/),
    });
  });
});
