/**
 * A step boundary while the sandbox is still being created (a prewarm waiting on a slow
 * engine) or after it failed takes no snapshot and does not wait: the recorder must not
 * hold the run up until the engine answers, nor create the sandbox again at every step.
 * The engine here is a real Docker client on a socket that accepts and never answers.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { CheckpointStore } from '../runs/checkpoint-store';
import { DockerodeEngine } from '../sandbox/dockerode-engine';
import { SANDBOX_RESOURCE, SandboxManager } from '../sandbox/sandbox-manager';
import { localSettings, tempSession } from '../sandbox/testing/sandbox-fixture';
import { CheckpointRecorder } from './checkpoint-recorder';

let silent: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
});

async function silentEngine(): Promise<DockerodeEngine> {
  const path = join(mkdtempSync(join(tmpdir(), 'wb-silent-')), 'docker.sock');
  silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent!.listen(path, resolve));
  return new DockerodeEngine({ dockerHost: `unix://${path}` });
}

describe('CheckpointRecorder', () => {
  it('skips a step boundary while the sandbox is still being created', async () => {
    const sandboxes = new SandboxManager({ engine: await silentEngine() });
    const session = tempSession();
    const settings = localSettings();
    // the prewarm: its creation waits on the engine, which never answers
    void sandboxes.acquire(session, settings).catch(() => undefined);
    for (let i = 0; i < 100 && !session.has(SANDBOX_RESOURCE); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(session.has(SANDBOX_RESOURCE)).toBe(true);
    const warnings: string[] = [];
    const events: RunEventPayload[] = [];
    const recorder = new CheckpointRecorder({
      store: new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-checkpoints-'))),
      runId: '20261201T000000-0000abcd',
      session,
      sandboxes,
      settings,
      limits: { budget: 1 << 30, runLimit: 1 << 30, stepLimit: 1 << 30 },
      warn: (message) => warnings.push(message),
      emit: (event) => events.push(event),
    });
    const boundary = recorder.atStepBoundary('swe', 1).then(() => 'done');
    const late = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000));
    expect(await Promise.race([boundary, late])).toBe('done');
    expect(warnings).toEqual([]);
    expect(events).toEqual([]);
  });
});
