/**
 * The Docker engine going away mid-run, simulated without touching the shared daemon:
 * the manager talks to the engine through a socket proxy, and the test cuts the proxy.
 * The command fails with a message naming Docker, the app keeps working, and the
 * container the failure left behind is removed once the engine answers again.
 */
import { mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LABELS } from './container-policy';
import { DockerodeEngine } from './dockerode-engine';
import { EngineDisconnectedError, EngineUnavailableError } from './errors';
import { SandboxManager } from './sandbox-manager';
import { probeDocker } from './testing/docker-env';
import {
  containersOf,
  containersWith,
  docker,
  localSettings,
  tempSession,
} from './testing/sandbox-fixture';

const engine = await probeDocker();

/** A unix-socket proxy in front of the real engine that can be cut and restored. */
class EngineProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly path: string,
    private readonly target = '/var/run/docker.sock',
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.path, resolve));
  }

  /** The engine "dies": open connections drop, new ones are refused. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
    this.server = null;
  }
}

describe.skipIf(!engine.available)('Docker engine dying mid-run', () => {
  const proxy = new EngineProxy(join(mkdtempSync(join(tmpdir(), 'wb-proxy-')), 'docker.sock'));
  const manager = new SandboxManager({
    engine: new DockerodeEngine({ dockerHost: `unix://${proxy.path}` }),
  });

  afterAll(async () => {
    await manager.dispose().catch(() => undefined);
    const left = await containersOf(manager);
    if (left.length > 0) await docker('rm', '-f', ...left); // clean up, then fail
    expect(left).toEqual([]);
  });

  it('fails the command with a message naming Docker, then cleans up when it is back', async () => {
    await proxy.start();
    const session = tempSession();
    const sandbox = await manager.acquire(session, localSettings());
    const shell = await sandbox.openShell();
    const running = sandbox.runInShell(shell, 'sleep 30', { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 500));
    const cutAt = performance.now();
    await proxy.cut();

    const error = await running.catch((e: unknown) => e);
    expect(performance.now() - cutAt).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(EngineDisconnectedError);
    expect((error as Error).message).toMatch(
      /Docker engine (stopped answering|at unix:\/\/\S+ broke)/,
    );
    expect((error as Error).message).toMatch(/docker info|Docker is not installed or not running/);

    // While the engine is away, new work fails fast with advice, and nothing hangs.
    const next = tempSession();
    await expect(manager.acquire(next, localSettings())).rejects.toBeInstanceOf(
      EngineUnavailableError,
    );
    await expect(session.close()).rejects.toThrow();
    expect(await containersWith({ [LABELS.session]: session.id })).toEqual([sandbox.id]);

    // The engine comes back: the next sandbox request also removes the leftover.
    await proxy.start();
    const again = await manager.acquire(next, localSettings());
    expect((await again.exec(['echo', 'back'], { timeoutMs: 10_000 })).stdout).toBe('back\n');
    expect(await containersWith({ [LABELS.session]: session.id })).toEqual([]);
    await next.close();
  });
});
