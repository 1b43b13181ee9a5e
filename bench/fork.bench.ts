/**
 * Time travel on the real Docker engine with the local image (issue 14):
 * - checkpoint overhead per step for workspaces of 1 MB, 50 MB and 500 MB with 1 MB
 *   changed per step: on the step's path since issue 27, the capture (walk, listing,
 *   staged copies; the archive written beside the next step, timed apart), against the
 *   previous implementation (walk and archive on the path, `takeHostSnapshot`) on the
 *   same changes in the same run; the in-container incremental snapshot
 *   (workspace-snapshot.ts, remote engines) against the step
 *   itself without a checkpoint (writing the 1 MB through the bash tool's shell), and the
 *   alternatives measured here to choose it: a full archive of the workspace through the
 *   engine's archive API, and `docker commit` (which leaves bind mounts, so the
 *   workspace, out: it cannot restore files at all; its time is shown for reference);
 * - time from "fork" to the fork's first model request, 50 MB workspace, against a new
 *   run's time to its first model request in the same run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunEvent } from '../src-shared/events';
import { sandboxSchema } from '../src-main/runtime/config/schema';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { createRuntime } from '../src-main/runtime/runtime';
import { SandboxManager } from '../src-main/runtime/sandbox/sandbox-manager';
import { LOCAL_SANDBOX_IMAGE } from '../src-main/runtime/sandbox/testing/docker-env';
import { Session } from '../src-main/runtime/session/session';
import { CheckpointStore } from '../src-main/runtime/runs/checkpoint-store';
import { CheckpointRecorder } from '../src-main/runtime/timetravel/checkpoint-recorder';
import { takeSnapshot } from '../src-main/runtime/timetravel/workspace-snapshot';
import {
  captureHostSnapshot,
  takeHostSnapshot,
} from '../src-main/runtime/timetravel/host-snapshot';
import { loadavg } from 'node:os';
import { report, type BenchResult, type Figure } from './report';

const run = promisify(execFile);
const STEPS = 8;

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function dockerAvailable(): Promise<string | null> {
  try {
    await run('docker', ['image', 'inspect', LOCAL_SANDBOX_IMAGE], { timeout: 10_000 });
    return null;
  } catch {
    return `Docker or the image ${LOCAL_SANDBOX_IMAGE} is not available (run scripts/setup-system.sh)`;
  }
}

async function checkpointFigures(sizeMb: number, scratch: string): Promise<Figure[]> {
  const manager = new SandboxManager();
  const settings = sandboxSchema.parse({
    image: LOCAL_SANDBOX_IMAGE,
    workspace_limit: '2g',
    timeout: 600,
  });
  const session = new Session(`bench-fork-${sizeMb}`, join(scratch, `ws-${sizeMb}`));
  try {
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const sh = async (command: string) => {
      const r = await shell.run(command, { timeoutMs: 600_000 });
      if (r.exitCode !== 0) throw new Error(`${command}: ${r.stderr}`);
    };
    // The workspace: 1 MB files of random bytes (incompressible, like real data).
    await sh(
      `cd /workspace && for i in $(seq 1 ${sizeMb}); do head -c 1048576 /dev/urandom > base-$i.bin; done`,
    );
    const target = {
      engine: manager.engine,
      containerId: sandbox.id,
      user: sandbox.user,
      workDir: sandbox.workDir,
    };
    const runId = `20260101T000000-bench${String(sizeMb).padStart(3, '0')}`;
    let file = 0;
    const step = () =>
      sh(`head -c 1048576 /dev/urandom > /workspace/step-${++file}.bin && printf x >> base-1.bin`);
    const t0 = performance.now();
    let mark = (
      await takeHostSnapshot(session.workspaceDir, join(scratch, `full-${sizeMb}.tar`), undefined)
    ).mark;
    const first = performance.now() - t0;
    await takeSnapshot(target, join(scratch, `cfull-${sizeMb}.tar`), { runId, isFull: true });
    const plain: number[] = [];
    const overhead: number[] = [];
    const onPath: number[] = [];
    const background: number[] = [];
    const inContainer: number[] = [];
    const deltaBytes: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      let t = performance.now();
      await step();
      plain.push(performance.now() - t);
      // The chosen method: on the host (local engine, bind-mounted workspace), captured on
      // the step's path, the archive written after (beside the next step in a run).
      t = performance.now();
      const capture = await captureHostSnapshot(
        session.workspaceDir,
        join(scratch, `stage-${sizeMb}-${i}`),
        mark,
      );
      onPath.push(performance.now() - t);
      t = performance.now();
      await capture.write(join(scratch, `staged-${sizeMb}-${i}.tar`));
      background.push(performance.now() - t);
      // The previous implementation, on the same changes: walk and archive on the path.
      t = performance.now();
      const taken = await takeHostSnapshot(
        session.workspaceDir,
        join(scratch, `delta-${sizeMb}-${i}.tar`),
        mark,
      );
      overhead.push(performance.now() - t);
      if (taken.bytes !== capture.bytes) throw new Error('the capture and the archive differ');
      mark = capture.mark;
      // 1 MB new + 1 MB appended to, and the previous step's last writes again when they
      // fell within the ctime slack (host-snapshot.ts)
      if (taken.isFull || taken.bytes > 5 * 1048576) throw new Error('the delta is not a delta');
      deltaBytes.push(taken.bytes);
      // The same delta taken inside the container (what a remote engine gets).
      t = performance.now();
      await takeSnapshot(target, join(scratch, `cdelta-${sizeMb}-${i}.tar`), { runId });
      inContainer.push(performance.now() - t);
    }
    // The recorder as a run has it: the boundary's own time, and how long the next step's
    // tool call (through the sandbox, which holds calls during a capture) takes more than
    // the same call alone. The model call between them is the bench's 0 ms.
    const recorder = new CheckpointRecorder({
      store: new CheckpointStore(join(scratch, `runs-${sizeMb}`)),
      runId: `20260101T000000-brec${String(sizeMb).padStart(4, '0')}`,
      session,
      sandboxes: manager,
      settings,
      limits: { budget: 8 * 1024 ** 3, runLimit: 8 * 1024 ** 3, stepLimit: 4 * 1024 ** 3 },
      warn: (message) => console.warn(message),
      emit: () => undefined,
    });
    const toolStep = () =>
      sandbox.runInShell(
        shell,
        `head -c 1048576 /dev/urandom > /workspace/step-${++file}.bin && printf x >> base-1.bin`,
        { timeoutMs: 600_000 },
      );
    await recorder.atStepBoundary('bench', 0); // the first, full one
    await recorder.settled();
    const boundary: number[] = [];
    const toolWait: number[] = [];
    const alone: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      const t = performance.now();
      await toolStep();
      alone.push(performance.now() - t);
    }
    const step50Now = p50(alone);
    for (let i = 1; i <= STEPS; i++) {
      let t = performance.now();
      await toolStep();
      if (i > 1) toolWait.push(Math.max(0, performance.now() - t - step50Now));
      t = performance.now();
      await recorder.atStepBoundary('bench', i);
      boundary.push(performance.now() - t);
    }
    await recorder.settled();
    const kept = new CheckpointStore(join(scratch, `runs-${sizeMb}`)).list(
      `20260101T000000-brec${String(sizeMb).padStart(4, '0')}`,
    );
    if (kept.length !== STEPS + 1) throw new Error(`the recorder kept ${kept.length} checkpoints`);
    const archive: number[] = [];
    for (let i = 0; i < (sizeMb >= 500 ? 2 : 4); i++) {
      const t = performance.now();
      await manager.engine.getArchive(sandbox.id, sandbox.workDir);
      archive.push(performance.now() - t);
    }
    const t1 = performance.now();
    const { stdout } = await run('docker', ['commit', sandbox.id]);
    const commit = performance.now() - t1;
    await run('docker', ['rmi', stdout.trim()]).catch(() => undefined);
    const step50 = p50(plain);
    const over50 = p50(overhead);
    return [
      { label: `${sizeMb} MB: step without checkpoint (p50)`, value: step50, unit: 'ms' },
      {
        label: `${sizeMb} MB: on the step's path, the boundary (p50, max)`,
        value: p50(boundary),
        unit: 'ms',
        note: `max ${Math.max(...boundary).toFixed(1)} ms; goal < 20 ms; load ${loadavg()[0]!.toFixed(1)}`,
      },
      {
        label: `${sizeMb} MB: the next tool call's wait for the capture (p50, max)`,
        value: p50(toolWait),
        unit: 'ms',
        note: `max ${Math.max(...toolWait).toFixed(1)} ms; the tool call minus its ${step50Now.toFixed(1)} ms alone (p50), a 0 ms model call between`,
      },
      {
        label: `${sizeMb} MB: the capture, beside the next model call (p50)`,
        value: p50(onPath),
        unit: 'ms',
        note: `${(p50(onPath) / over50).toFixed(2)}x the previous`,
      },
      {
        label: `${sizeMb} MB: previous, walk + archive on the path (p50)`,
        value: over50,
        unit: 'ms',
        note: `${(over50 / step50).toFixed(2)}x the step`,
      },
      {
        label: `${sizeMb} MB: its archive written beside the next step (p50)`,
        value: p50(background),
        unit: 'ms',
        note: 'off the path',
      },
      { label: `${sizeMb} MB: first (full) checkpoint`, value: first, unit: 'ms' },
      {
        label: `${sizeMb} MB: archive per step (p50)`,
        value: p50(deltaBytes) / 1048576,
        unit: 'MB',
      },
      {
        label: `${sizeMb} MB: incremental inside the container (p50)`,
        value: p50(inContainer),
        unit: 'ms',
        note: 'one exec; remote engines',
      },
      {
        label: `${sizeMb} MB: full archive via the engine API (p50)`,
        value: p50(archive),
        unit: 'ms',
        note: `${(p50(archive) / over50).toFixed(1)}x the incremental snapshot`,
      },
      {
        label: `${sizeMb} MB: docker commit`,
        value: commit,
        unit: 'ms',
        note: 'leaves the bind-mounted workspace out',
      },
    ];
  } finally {
    await session.close().catch(() => undefined);
    await manager.dispose().catch(() => undefined);
  }
}

async function forkFigures(scratch: string): Promise<Figure[]> {
  const home = join(scratch, 'home');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "scripted"\napi_key = "sk-bench-fork"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
    { mode: 0o600 },
  );
  const runtime = createRuntime({
    home,
    createLlm: () =>
      new ScriptedLlm((request) => {
        const results = request.messages.filter((m) => m.role === 'tool').length;
        if (results === 0)
          return {
            toolCalls: [
              {
                name: 'bash',
                args: {
                  command:
                    'cd /workspace && for i in $(seq 1 50); do head -c 1048576 /dev/urandom > f-$i.bin; done',
                },
              },
            ],
          };
        return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
      }),
  });
  const firstRequest = new Map<string, number>();
  runtime.runs.onEvent((e: RunEvent) => {
    if (e.type === 'llm.requested' && !firstRequest.has(e.runId))
      firstRequest.set(e.runId, performance.now());
  });
  try {
    const original = runtime.runs.start({ task: 'write 50 MB', agent: 'manus' });
    await original.done;
    const forks: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < 3; i++) {
      let t = performance.now();
      const fork = await runtime.runs.startFrom({ kind: 'fork', runId: original.runId, step: 1 });
      await fork.done;
      forks.push(firstRequest.get(fork.runId)! - t);
      // Baseline: a new run in a new session (its container created on first use).
      t = performance.now();
      const other = runtime.runs.start({
        task: 'write 50 MB',
        agent: 'manus',
        sessionId: `bench-new-${i}`,
      });
      await other.done;
      fresh.push(firstRequest.get(other.runId)! - t);
    }
    return [
      { label: 'new run: start to first model request (p50)', value: p50(fresh), unit: 'ms' },
      {
        label: 'fork at 50 MB: fork to first model request (p50)',
        value: p50(forks),
        unit: 'ms',
        note: `${(p50(forks) / p50(fresh)).toFixed(1)}x a new run; goal < 2000 ms`,
      },
    ];
  } finally {
    await runtime.dispose();
  }
}

export async function forkBench(): Promise<BenchResult> {
  const name = 'fork: checkpoint overhead per step and time to a fork’s first model request';
  const missing = await dockerAvailable();
  if (missing) {
    console.log(`\n## ${name}\n  skipped: ${missing}`);
    return { name, figures: [] };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'wb-bench-fork-'));
  try {
    const figures: Figure[] = [];
    for (const size of [1, 50, 500]) figures.push(...(await checkpointFigures(size, scratch)));
    figures.push(...(await forkFigures(scratch)));
    return report(name, figures);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
