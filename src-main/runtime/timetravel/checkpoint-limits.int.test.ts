/**
 * Issue 24 item 3 against the real engine: what a run's snapshots may take.
 * - a sparse file (`truncate -s 100M`, touched every step) costs what it costs on disk,
 *   and a fork restored through the engine's putArchive has it whole;
 * - a file past `[history] snapshot_step_limit` is left out with a `checkpoint.limited`
 *   event, stays marked while unchanged (a fork never gets a stale copy) and is taken
 *   again once it fits;
 * - the run's own cap and the budget stop its checkpointing with an event (the writing
 *   run's snapshots count; older runs are evicted first), the earlier steps intact;
 * - the in-container method (remote engines): --sparse, a file past the step cap listed
 *   as left out, an archive past the room refused.
 */
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { CheckpointStore } from '../runs/checkpoint-store';
import type { Sandbox } from '../sandbox/sandbox';
import { SandboxManager } from '../sandbox/sandbox-manager';
import { probeDocker } from '../sandbox/testing/docker-env';
import { localSettings, tempSession } from '../sandbox/testing/sandbox-fixture';
import type { Session } from '../session/session';
import type { CheckpointLimits } from './checkpoint-room';
import { CheckpointRecorder } from './checkpoint-recorder';
import { SnapshotLimitError } from './snapshot-caps';
import { restoreWorkspace } from './workspace-restore';
import { takeSnapshot, type SnapshotTarget } from './workspace-snapshot';

const docker = await probeDocker();
const MB = 1024 * 1024;
const RUN = '20260201T000000-limitrun';
const OLDER = '20260101T000000-olderrun';
const BIG: CheckpointLimits = { budget: 1024 * MB, runLimit: 1024 * MB, stepLimit: 1024 * MB };

describe.skipIf(!docker.available)('what a run’s snapshots may take', () => {
  const manager = new SandboxManager();
  const settings = localSettings();
  afterAll(async () => {
    await manager.dispose();
  });

  async function sandboxOf(session: Session) {
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const sh = async (command: string) => {
      const r = await shell.run(command, { timeoutMs: 60_000 });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    return { sandbox, sh };
  }

  function targetOf(sandbox: Sandbox): SnapshotTarget {
    return {
      engine: manager.engine,
      containerId: sandbox.id,
      user: sandbox.user,
      workDir: sandbox.workDir,
    };
  }

  function recorderFor(session: Session, store: CheckpointStore, limits: CheckpointLimits) {
    const events: RunEventPayload[] = [];
    const warnings: string[] = [];
    const recorder = new CheckpointRecorder({
      store,
      runId: RUN,
      session,
      sandboxes: manager,
      settings,
      limits,
      warn: (message) => warnings.push(message),
      emit: (event) => events.push(event),
    });
    return { recorder, events, warnings };
  }

  /** A fork's workspace restored from `step` of the run. */
  async function forkAt(store: CheckpointStore, step: number): Promise<Session> {
    const other = tempSession();
    const sandbox = await manager.acquire(other, settings);
    const { archives, metas } = store.chain(RUN, step);
    await restoreWorkspace(targetOf(sandbox), archives, metas.at(-1)!.manifest);
    return other;
  }

  const diskUse = (dir: string) =>
    readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).blocks * 512, 0);

  it('stores a sparse file as what it costs on disk, at every step, and a fork gets it whole', async () => {
    const session = tempSession();
    const { sh } = await sandboxOf(session);
    await sh(
      'cd /workspace && truncate -s 100M disk.img && printf middle | dd of=disk.img bs=1 seek=52428800 conv=notrunc 2>/dev/null',
    );
    // a file with two names: stored once
    await sh('cd /workspace && head -c 2097152 /dev/urandom > data.bin && ln data.bin twin.bin');
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-limits-')));
    const { recorder, events, warnings } = recorderFor(session, store, BIG);
    for (let step = 1; step <= 5; step++) {
      if (step > 1) await sh('touch /workspace/disk.img'); // changed again: taken again
      await recorder.atStepBoundary('swe', step).then(() => recorder.settled());
    }
    expect(warnings).toEqual([]);
    expect(events).toEqual([]);
    expect(store.list(RUN)).toHaveLength(5);
    const used = diskUse(store.dirOf(RUN));
    console.log(
      `sparse: 5 checkpoints of a 100 MB sparse file (and 2 MB with two names) take ${used} bytes on disk`,
    );
    expect(used).toBeLessThan(3 * MB);

    const fork = await forkAt(store, 5);
    const restored = join(fork.workspaceDir, 'disk.img');
    expect(statSync(restored).size).toBe(100 * MB);
    const { readSync, openSync, closeSync } = await import('node:fs');
    const fd = openSync(restored, 'r');
    const bytes = Buffer.alloc(8);
    readSync(fd, bytes, 0, 8, 50 * MB - 1);
    closeSync(fd);
    expect(bytes.toString('latin1')).toBe('\0middle\0');
    const twin = statSync(join(fork.workspaceDir, 'twin.bin'));
    expect(twin.ino).toBe(statSync(join(fork.workspaceDir, 'data.bin')).ino);
    expect(twin.size).toBe(2 * MB);
    await fork.close();
    await session.close();
  }, 180_000);

  it('leaves out a file past the step cap with an event, keeps it marked, takes it once it fits', async () => {
    const session = tempSession();
    const { sh } = await sandboxOf(session);
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-limits-')));
    const { recorder, events } = recorderFor(session, store, { ...BIG, stepLimit: 2 * MB });
    await sh('cd /workspace && printf v1 > small && head -c 3145728 /dev/urandom > big.bin');
    await recorder.atStepBoundary('swe', 1).then(() => recorder.settled());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'checkpoint.limited',
        step: 1,
        action: 'files_skipped',
        reason: 'step_limit',
        bytes: 3 * MB,
        limit: 2 * MB,
        paths: ['big.bin'],
        count: 1,
        message: expect.stringMatching(/leaves out big\.bin .*snapshot_step_limit \(2\.0 MB\)/),
      }),
    ]);
    await sh('cd /workspace && printf v2 > small');
    await recorder.atStepBoundary('swe', 2).then(() => recorder.settled());
    expect(events).toHaveLength(1); // still left out, said once
    expect(store.list(RUN)[1]!.manifest.find((e) => e.path === 'big.bin')?.skipped).toMatch(
      /snapshot_step_limit/,
    );
    const fork2 = await forkAt(store, 2);
    expect(readdirSync(fork2.workspaceDir).sort()).toEqual(['small']);
    await fork2.close();

    await sh('cd /workspace && truncate -s 1M big.bin');
    await recorder.atStepBoundary('swe', 3).then(() => recorder.settled());
    const fork3 = await forkAt(store, 3);
    expect(statSync(join(fork3.workspaceDir, 'big.bin')).size).toBe(MB);
    await fork3.close();
    await session.close();
  }, 180_000);

  it('stops the run’s checkpointing at its own cap or the budget, older runs evicted first', async () => {
    for (const reason of ['run_limit', 'budget'] as const) {
      const session = tempSession();
      const { sh } = await sandboxOf(session);
      const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-limits-')));
      // an older run's snapshots: the budget evicts them before it stops this run
      mkdirSync(store.dirOf(OLDER), { recursive: true });
      writeFileSync(join(store.dirOf(OLDER), 'step-1.tar'), Buffer.alloc(3 * MB));
      writeFileSync(join(store.dirOf(OLDER), 'step-1.json'), '{}');
      const limits =
        reason === 'run_limit' ? { ...BIG, runLimit: 5 * MB } : { ...BIG, budget: 5 * MB };
      const { recorder, events, warnings } = recorderFor(session, store, limits);
      for (let step = 1; step <= 5; step++) {
        await sh(`head -c 2097152 /dev/urandom > /workspace/step-${step}.bin`);
        // past the ctime slack: the file is not taken again by the next step
        await new Promise((resolve) => setTimeout(resolve, 50));
        await recorder.atStepBoundary('swe', step).then(() => recorder.settled());
      }
      expect(store.list(RUN).map((m) => m.step)).toEqual([1, 2]);
      expect(events).toEqual([
        expect.objectContaining({
          type: 'checkpoint.limited',
          step: 3,
          action: 'stopped',
          reason,
          message: expect.stringMatching(
            reason === 'run_limit' ? /snapshot_run_limit \(5\.0 MB\)/ : /snapshot_budget/,
          ),
        }),
      ]);
      expect(readdirSync(store.dirOf(RUN)).sort()).toEqual([
        'step-1.json',
        'step-1.tar',
        'step-2.json',
        'step-2.tar',
      ]);
      if (reason === 'budget') {
        expect(warnings.join('\n')).toMatch(new RegExp(`Run ${OLDER}: .* evicted`));
        expect(store.evictedNote(OLDER)).toBeDefined();
      } else {
        expect(store.evictedNote(OLDER)).toBeUndefined();
      }
      expect(store.sizeOf(RUN)).toBeLessThanOrEqual(limits.budget);
      const fork = await forkAt(store, 2);
      expect(readdirSync(fork.workspaceDir).sort()).toEqual(['step-1.bin', 'step-2.bin']);
      await fork.close();
      await session.close();
    }
  }, 240_000);

  it('in the container: sparse files cost their data, a file past the step cap is listed as left out, a stream past the room is refused', async () => {
    const session = tempSession();
    const { sandbox, sh } = await sandboxOf(session);
    const target = targetOf(sandbox);
    const dir = mkdtempSync(join(tmpdir(), 'wb-limits-in-'));
    await sh(
      'cd /workspace && truncate -s 100M disk.img && printf middle | dd of=disk.img bs=1 seek=52428800 conv=notrunc 2>/dev/null && printf s > small',
    );
    const first = await takeSnapshot(target, join(dir, '1.tar'), {
      runId: RUN,
      isFull: true,
      caps: { stepBytes: 200 * MB, roomBytes: Infinity },
    });
    expect(first.bytes).toBeLessThan(MB);
    expect(first.archived.sort()).toEqual(['disk.img', 'small']);
    const other = tempSession();
    const restored = await manager.acquire(other, settings);
    await restoreWorkspace(targetOf(restored), [join(dir, '1.tar')], first.manifest);
    expect(statSync(join(other.workspaceDir, 'disk.img')).size).toBe(100 * MB);
    await other.close();

    await sh('head -c 3145728 /dev/urandom > /workspace/big.bin');
    const second = await takeSnapshot(target, join(dir, '2.tar'), {
      runId: RUN,
      caps: { stepBytes: 2 * MB, roomBytes: Infinity },
    });
    expect(second.manifest.find((e) => e.path === 'big.bin')).toMatchObject({
      kind: 'f',
      skipped: expect.stringMatching(/3\.0 MB are over \[history\] snapshot_step_limit/),
    });
    expect(second.archived).toEqual([]);
    expect(second.skippedBytes).toBe(3 * MB);

    await sh('touch /workspace/big.bin');
    await expect(
      takeSnapshot(target, join(dir, '3.tar'), {
        runId: RUN,
        caps: { stepBytes: 10 * MB, roomBytes: MB },
      }),
    ).rejects.toBeInstanceOf(SnapshotLimitError);
    // it stopped writing at the cap
    expect(statSync(join(dir, '3.tar')).size).toBeLessThanOrEqual(MB);
    await session.close();
  }, 180_000);
});
