/**
 * Docker missing, stopped or hung (reliability.md S10), with DOCKER_HOST pointed at a
 * dead socket: every failure is quick and its message says what to do. No Docker needed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxSchema } from '../config/schema';
import { Session } from '../session/session';
import { CancelledError } from '../util/abort';
import { withDeadline } from './deadline';
import { DockerodeEngine } from './dockerode-engine';
import { EngineTimeoutError, EngineUnavailableError } from './errors';
import { currentOwner, ownerVerdict, processStartTime } from './owner';
import { LABELS } from './container-policy';
import { SandboxManager } from './sandbox-manager';

const dir = mkdtempSync(join(tmpdir(), 'wb-engine-'));
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

describe('engine unavailable (S10)', () => {
  it('names the socket and how to install or start Docker when there is no socket', async () => {
    const engine = new DockerodeEngine({ dockerHost: `unix://${join(dir, 'missing.sock')}` });
    const started = performance.now();
    const error = await engine.ping().catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect((error as Error).message).toMatch(/missing\.sock/);
    expect((error as Error).message).toMatch(/not installed or not running/);
    expect((error as Error).message).toMatch(/setup-system\.sh|Docker Desktop/);
  });

  it('says the engine is not running when nothing listens on the socket', async () => {
    const path = join(dir, 'stale.sock');
    writeFileSync(path, ''); // a leftover file where the socket was
    const engine = new DockerodeEngine({ dockerHost: `unix://${path}` });
    const error = await engine.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineUnavailableError);
    expect((error as Error).message).toMatch(
      /refused the connection: it is not running|not installed or not running/,
    );
  });

  it('gives up on a hung engine at the deadline, with a message naming the call', async () => {
    const path = join(dir, 'hung.sock');
    const server = createServer(() => undefined); // accepts, never answers
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const engine = new DockerodeEngine({ dockerHost: `unix://${path}` });
    const started = performance.now();
    const error = await engine.ping({ timeoutMs: 300 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(EngineTimeoutError);
    expect((error as Error).message).toMatch(/did not finish "ping" within 300ms/);
  });

  it('fails a sandbox request with that message and reports it as a failed sandbox', async () => {
    const manager = new SandboxManager({
      engine: new DockerodeEngine({ dockerHost: `unix://${join(dir, 'none.sock')}` }),
    });
    const events: string[] = [];
    manager.watch('s1', (e) => events.push(`${e.status}${e.error ? `: ${e.error}` : ''}`));
    const session = new Session('s1', mkdtempSync(join(tmpdir(), 'wb-ws-')));
    const settings = sandboxSchema.parse({});
    await expect(manager.acquire(session, settings)).rejects.toThrow(/Docker is unavailable/);
    expect(events[0]).toBe('creating');
    expect(events.at(-1)).toMatch(/^failed: Docker is unavailable/);
    // A failed creation is not cached: the next call tries again (and fails the same way).
    await expect(manager.acquire(session, settings)).rejects.toThrow(/Docker is unavailable/);
    await manager.dispose();
  });

  it('refuses politely when the sandbox is turned off', async () => {
    const manager = new SandboxManager({
      engine: new DockerodeEngine({ dockerHost: `unix://${join(dir, 'none.sock')}` }),
    });
    const session = new Session('s2', mkdtempSync(join(tmpdir(), 'wb-ws-')));
    await expect(
      manager.acquire(session, sandboxSchema.parse({ use_sandbox: false })),
    ).rejects.toThrow(/use_sandbox = false/);
    await manager.dispose();
  });
});

describe('deadlines', () => {
  it('returns at the deadline even if the call ignores its signal', async () => {
    const never = () => new Promise<never>(() => undefined);
    const started = performance.now();
    await expect(withDeadline('slow call', 'unix:///x', 100, undefined, never)).rejects.toThrow(
      EngineTimeoutError,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('turns the caller aborting into a cancellation, not a timeout', async () => {
    const controller = new AbortController();
    const pending = withDeadline(
      'call',
      'unix:///x',
      10_000,
      controller.signal,
      () => new Promise<never>(() => undefined),
    );
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('container owners', () => {
  const self = currentOwner('me');
  const labels = (pid: number, extra: Record<string, string> = {}) => ({
    [LABELS.instance]: 'someone-else',
    [LABELS.host]: self.host,
    [LABELS.pid]: String(pid),
    ...extra,
  });

  it('knows its own containers and those of a live process', () => {
    expect(ownerVerdict({ [LABELS.instance]: 'me' }, self)).toBe('self');
    expect(ownerVerdict(labels(process.pid), self)).toBe('alive');
  });

  it('declares the owner gone when its process exited', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid ?? -1;
    await new Promise((resolve) => child.on('exit', resolve));
    expect(ownerVerdict(labels(pid), self)).toBe('gone');
  });

  it('tells a reused pid from the original process by its start time', () => {
    const start = processStartTime(process.pid);
    if (start === null) return; // not Linux: pid reuse cannot be told apart there
    expect(ownerVerdict(labels(process.pid, { [LABELS.pidStart]: start }), self)).toBe('alive');
    expect(ownerVerdict(labels(process.pid, { [LABELS.pidStart]: '1' }), self)).toBe('gone');
  });

  it('leaves containers of other machines alone', () => {
    expect(ownerVerdict({ ...labels(1), [LABELS.host]: 'other-host' }, self)).toBe('foreign-host');
  });
});
