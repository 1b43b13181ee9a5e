/**
 * Issue 24 item 3 on a real full disk: the run history (its event log and the sandbox
 * snapshots) is on a 24 MB tmpfs while the sandbox writes 3 MB of new data at every step.
 * - The snapshots stop before the disk is full (a reserve is kept for the histories):
 *   one `checkpoint.limited` (stopped, disk_full), every event of the run still saved.
 * - When the disk fills anyway under a snapshot (another writer took the space after the
 *   snapshot looked: here a look that is out of date), the snapshot is removed, the
 *   run's checkpointing stops with the same event, and the history is intact: no partial
 *   archive, no archive without its record, every earlier step restorable.
 * Mounting needs root (CAP_SYS_ADMIN); elsewhere the test says why it cannot run. Docker
 * is required under REQUIRE_DOCKER=1 (probeDocker fails then instead of skipping).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStamper, type RunEventPayload } from '@shared/events';
import { CheckpointStore } from '../runs/checkpoint-store';
import { RunStore } from '../runs/run-store';
import { SandboxManager } from '../sandbox/sandbox-manager';
import { probeDocker } from '../sandbox/testing/docker-env';
import { localSettings, tempSession } from '../sandbox/testing/sandbox-fixture';
import { diskSpace, type CheckpointLimits } from './checkpoint-room';
import { CheckpointRecorder } from './checkpoint-recorder';
import { restoreWorkspace } from './workspace-restore';

const MB = 1024 * 1024;
const LIMITS: CheckpointLimits = { budget: 1024 * MB, runLimit: 1024 * MB, stepLimit: 1024 * MB };

function mountTmpfs(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'wb-ckpt-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (error) {
    console.warn(
      `[tests] checkpoint disk-full test skipped: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`,
    );
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const docker = await probeDocker();
const mounted = docker.available ? mountTmpfs() : null;

describe.skipIf(!docker.available || !mounted)(
  'checkpoints on a real full disk (24 MB tmpfs)',
  () => {
    const manager = new SandboxManager();
    afterAll(async () => {
      await manager.dispose();
      if (mounted) execFileSync('umount', [mounted]);
    });

    for (const how of ['kept in reserve', 'hit under a snapshot'] as const) {
      it(`stops checkpointing cleanly with the history intact: disk ${how}`, async () => {
        const runs = join(mounted!, how.replace(/ /g, '-'));
        mkdirSync(runs);
        const runId =
          how === 'kept in reserve' ? '20260301T000000-diskfull' : '20260301T000000-enospc00';
        const settings = localSettings();
        const session = tempSession();
        const sandbox = await manager.acquire(session, settings);
        const shell = await sandbox.openShell();
        const sh = async (command: string) => {
          const r = await shell.run(command, { timeoutMs: 30_000 });
          expect(r.exitCode, r.stderr).toBe(0);
        };
        const store = new CheckpointStore(runs);
        const historyWarnings: string[] = [];
        const history = new RunStore(runs, { onWarning: (w) => historyWarnings.push(w) });
        const stamper = createEventStamper(runId);
        const record = (payload: RunEventPayload) => {
          const event = stamper.stamp(payload);
          history.append(event, JSON.stringify(event));
        };
        record({
          type: 'run.started',
          agent: 'swe',
          task: 'fill',
          maxSteps: 20,
          model: 'm',
          sessionId: session.id,
        });
        const events: RunEventPayload[] = [];
        const warnings: string[] = [];
        const recorder = new CheckpointRecorder({
          store,
          runId,
          session,
          sandboxes: manager,
          settings,
          limits: LIMITS,
          warn: (message) => warnings.push(message),
          emit: (event) => {
            events.push(event);
            record(event);
          },
          // "hit under a snapshot": the look says there is plenty, the disk has not
          ...(how === 'hit under a snapshot'
            ? { diskSpace: () => ({ free: 1024 * MB, total: 2048 * MB }) }
            : {}),
        });
        for (let step = 1; step <= 12; step++) {
          record({ type: 'step.started', agent: 'swe', step, maxSteps: 20 });
          await sh(`head -c 3145728 /dev/urandom > /workspace/step-${step}.bin`);
          await new Promise((resolve) => setTimeout(resolve, 30)); // past the ctime slack
          record({ type: 'step.finished', agent: 'swe', step, durationMs: 1 });
          await recorder.atStepBoundary('swe', step).then(() => recorder.settled());
        }
        record({
          type: 'run.finished',
          outcome: 'finished',
          state: 'FINISHED',
          steps: 12,
          usage: { prompt: 0, completion: 0 },
        });

        expect(warnings).toEqual([]);
        expect(events).toHaveLength(1);
        const stopped = events[0]!;
        expect(stopped).toMatchObject({
          type: 'checkpoint.limited',
          action: 'stopped',
          reason: 'disk_full',
          message: expect.stringMatching(
            how === 'kept in reserve'
              ? /Checkpointing stopped at step \d+: the disk holding the run history is full \(.* free, .* kept for the histories\)/
              : /Checkpointing stopped at step \d+: the disk holding the run history filled up while this step's snapshot was written \(ENOSPC\)/,
          ),
        });
        const stoppedAt = (stopped as { step: number }).step;
        console.log(
          `disk full (${how}): checkpoints of steps 1-${stoppedAt - 1} kept, stopped at ${stoppedAt}; ` +
            `${Math.round((diskSpace(runs)?.free ?? 0) / 1024)} KB left free`,
        );
        expect(stoppedAt).toBeGreaterThan(2);
        expect(stoppedAt).toBeLessThan(9);

        // The history: every event saved, no warning from the log writer.
        expect(historyWarnings).toEqual([]);
        const saved = history.list().find((s) => s.runId === runId);
        expect(saved).toMatchObject({ outcome: 'finished', steps: 12 });
        expect(saved?.historyIncomplete).toBeUndefined();
        history.close();

        // The snapshots: nothing partial, every archive with its record, the last one restorable.
        const steps = Array.from({ length: stoppedAt - 1 }, (_, i) => i + 1);
        expect(readdirSync(store.dirOf(runId)).sort()).toEqual(
          steps.flatMap((s) => [`step-${s}.json`, `step-${s}.tar`]).sort(),
        );
        expect(store.list(runId).map((m) => m.step)).toEqual(steps);
        const last = store.list(runId).at(-1)!;
        const other = tempSession();
        const forked = await manager.acquire(other, settings);
        await restoreWorkspace(
          {
            engine: manager.engine,
            containerId: forked.id,
            user: forked.user,
            workDir: forked.workDir,
          },
          store.chain(runId, last.step).archives,
          last.manifest,
        );
        expect(readdirSync(other.workspaceDir).sort()).toEqual(
          steps.map((s) => `step-${s}.bin`).sort(),
        );
        await other.close();
        await session.close();
        rmSync(runs, { recursive: true, force: true }); // the disk for the next case
      }, 180_000);
    }
  },
);
