/**
 * A batch's warm sandbox pool on the real engine (issue 27, sandbox/warm-pool.ts): spares
 * started ahead within `[sandbox] max_containers`, taken by the runs (their sessions, their
 * folders, a task's files copied in), and nothing of them left when the batch ends, is
 * stopped, or its process dies.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { LABELS } from '../sandbox/container-policy';
import { SandboxManager } from '../sandbox/sandbox-manager';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { docker, localSettings } from '../sandbox/testing/sandbox-fixture';
import { SessionRegistry } from '../session/session';
import { WarmPool, sweepWarmPoolFolders } from '../sandbox/warm-pool';

const engine = await probeDocker();

/** Containers of an instance, with their session and warm-pool labels, as the engine lists them. */
async function containers(instanceId: string) {
  const format = `{{.ID}} {{.Label "${LABELS.session}"}} {{.Label "${LABELS.warmPool}"}}`;
  const out = await docker(
    'ps',
    '-a',
    '--no-trunc',
    '--filter',
    `label=${LABELS.instance}=${instanceId}`,
    '--format',
    format,
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', session = '', pool = ''] = line.split(' ');
      return { id, session, pool };
    });
}

function home(maxContainers: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-warm-'));
  writeFileSync(
    join(dir, 'config.toml'),
    `[llm]\nmodel = "scripted"\napi_key = "sk-test-warm-pool"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\nmax_containers = ${maxContainers}\n`,
    { mode: 0o600 },
  );
  return dir;
}

/** Each run: where am I and what is here, then a file of its own, then done. */
function llm(delayMs = 0) {
  return () =>
    new ScriptedLlm((request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      if (done === 0) {
        return {
          toolCalls: [{ name: 'bash', args: { command: 'pwd; ls; cat seed.txt 2>/dev/null' } }],
        };
      }
      if (done === 1) {
        return {
          ...(delayMs ? { delayMs } : {}),
          toolCalls: [{ name: 'bash', args: { command: 'echo mine > out.txt' } }],
        };
      }
      return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    });
}

function spareFolders(workspaces: string, runSessions: Set<string>): string[] {
  if (!existsSync(workspaces)) return [];
  return readdirSync(workspaces).filter((n) => n.includes('-warm-') && !runSessions.has(n));
}

describe.skipIf(!engine.available)('the warm sandbox pool of a batch', () => {
  const runtimes: Runtime[] = [];
  afterAll(async () => {
    await Promise.allSettled(runtimes.map((r) => r.dispose()));
    for (const r of runtimes)
      expect(await containers(r.services.sandboxes.owner.instanceId)).toEqual([]);
  });

  /** Runs a batch while counting the instance's containers through the engine. */
  async function sampled(
    maxContainers: number,
    delayMs: number,
    input: Omit<Parameters<Runtime['batches']['start']>[0], 'agent' | 'profiles'>,
  ) {
    const dir = home(maxContainers);
    const runtime = createRuntime({ home: dir, createLlm: llm(delayMs) });
    runtimes.push(runtime);
    const instance = runtime.services.sandboxes.owner.instanceId;
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const labelOf = new Map<string, string>();
    let most = 0;
    let sawSpare = false;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const now = await containers(instance);
        most = Math.max(most, now.length);
        for (const c of now) {
          labelOf.set(c.id, c.session);
          if (c.pool) sawSpare = true;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const { done } = runtime.batches.start({ agent: 'swe', profiles: [], ...input });
    const progress = await done;
    sampling = false;
    await sampler;
    const started = events.flatMap((e) => (e.type === 'run.started' ? [e] : []));
    const adopted = started.filter((e) => e.sessionId.includes('-warm-'));
    return { runtime, dir, instance, events, progress, most, sawSpare, labelOf, started, adopted };
  }

  it('never has more containers than max_containers when the cap binds', async () => {
    // 3 runs at once and up to 3 spares would be 6: the cap is 4
    const { progress, most, adopted } = await sampled(4, 0, {
      tasks: [{ task: 'plain' }],
      repeat: 9,
      concurrency: 3,
    });
    expect(progress).toMatchObject({ total: 9, done: 9, isComplete: true });
    expect(adopted.length).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(4);
  }, 180_000);

  it('runs take spares and work in their own folders, a task folder copied in; nothing is left', async () => {
    const seed = mkdtempSync(join(tmpdir(), 'wb-warm-seed-'));
    writeFileSync(join(seed, 'seed.txt'), 'seeded-content\n');
    const { runtime, dir, instance, events, progress, most, sawSpare, labelOf, started, adopted } =
      await sampled(4, 1_000, {
        tasks: [{ task: 'plain' }, { task: 'seeded', workspace: seed }],
        repeat: 3,
        concurrency: 2,
      });
    expect(progress).toMatchObject({ total: 6, done: 6, isComplete: true });
    expect(sawSpare).toBe(true);
    expect(most).toBeLessThanOrEqual(4);
    // the first runs start their own (the pool starts after the first sandbox); later ones take spares
    expect(adopted.length).toBeGreaterThanOrEqual(3);
    const workspaces = join(dir, 'workspaces');
    for (const run of adopted) {
      const own = events.filter((e) => e.runId === run.runId);
      const statuses = own.flatMap((e) => (e.type === 'sandbox.changed' ? [e.status] : []));
      // ready at once: no creation in the run's own story
      expect(statuses).not.toContain('creating');
      const ready = own.find((e) => e.type === 'sandbox.changed' && e.status === 'ready');
      const containerId = ready?.type === 'sandbox.changed' ? ready.containerId : undefined;
      expect(containerId).toBeDefined();
      // the container's session label names the run's recorded session, when it was seen
      const label = labelOf.get(containerId ?? '');
      if (label !== undefined) expect(label).toBe(run.sessionId);
      // its commands ran in its own folder, which is the run's recorded workspace
      const folder = join(workspaces, run.sessionId);
      expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('mine\n');
      const first = own.find((e) => e.type === 'tool.finished');
      const output = first?.type === 'tool.finished' ? first.output : '';
      expect(output).toContain('/workspace');
      if (run.task === 'seeded') {
        expect(run.workspace).toEqual({ path: seed, mode: 'copy', copyPath: folder });
        expect(output).toContain('seeded-content');
      } else {
        expect(output).not.toContain('seed.txt');
      }
    }
    expect(adopted.some((r) => r.task === 'seeded')).toBe(true);
    // the batch is over: no container, no spare's folder, no marker
    expect(await containers(instance)).toEqual([]);
    expect(spareFolders(workspaces, new Set(started.map((e) => e.sessionId)))).toEqual([]);
    expect(readdirSync(join(dir, 'warm-pool'))).toEqual([]);
    // as any run: its checkpoints hold its files, and its terminal reaches its folder
    const last = adopted.at(-1);
    if (!last) throw new Error('no adopted run');
    expect(runtime.files.file(last.runId, 3, 'out.txt')).toMatchObject({ text: 'mine\n' });
    const typed = await runtime.terminal.runUserCommand(last.runId, 'cat out.txt; pwd');
    expect(typed.output).toContain('mine');
    await runtime.services.sessions.close(last.sessionId);
    // a run whose task folder was copied into a spare's folder goes on there when continued
    const seeded = adopted.filter((r) => r.task === 'seeded').at(-1);
    if (!seeded) throw new Error('no seeded run took a spare');
    const next = await runtime.runs.startFrom({
      kind: 'continue',
      runId: seeded.runId,
      message: 'look again',
    });
    expect((await next.done).outcome).toBe('finished');
    const again = events.find((e) => e.runId === next.runId && e.type === 'run.started');
    expect(again).toMatchObject({ sessionId: seeded.sessionId });
    await runtime.services.sessions.close(seeded.sessionId);
  }, 180_000);

  it('a stopped batch leaves no spare: containers and folders are removed', async () => {
    const dir = home(4);
    const runtime = createRuntime({ home: dir, createLlm: llm(3_000) });
    runtimes.push(runtime);
    const instance = runtime.services.sandboxes.owner.instanceId;
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const { batchId, done } = runtime.batches.start({
      agent: 'swe',
      tasks: [{ task: 'slow' }],
      profiles: [],
      repeat: 6,
      concurrency: 2,
    });
    // spares are up while the first runs think
    await until(async () => (await containers(instance)).some((c) => c.pool === batchId));
    expect(runtime.batches.stop(batchId)).toBe(true);
    const progress = await done;
    expect(progress.isComplete).toBe(false);
    expect(await containers(instance)).toEqual([]);
    const sessions = new Set(
      events.flatMap((e) => (e.type === 'run.started' ? [e.sessionId] : [])),
    );
    expect(spareFolders(join(dir, 'workspaces'), sessions)).toEqual([]);
    expect(readdirSync(join(dir, 'warm-pool'))).toEqual([]);
  }, 180_000);

  it('a spare whose process died is removed by the next start: its container and its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-warm-crash-'));
    const workspaces = join(dir, 'workspaces');
    const markers = join(dir, 'warm-pool');
    // a process that is gone, as a crashed instance's
    const deadPid = spawnSync('true').pid ?? -1;
    const crashed = new SandboxManager({
      owner: { instanceId: `crashed-${Date.now()}`, host: hostname(), pid: deadPid, pidStart: '' },
    });
    const sessions = new SessionRegistry(workspaces);
    const pool = new WarmPool(
      {
        sandboxes: crashed,
        sessions,
        workspacesDir: workspaces,
        markersDir: markers,
        settings: () => localSettings({ max_containers: 2 }),
      },
      'batch-crashed',
    );
    pool.demand();
    pool.fill(1, []);
    await until(async () => (await containers(crashed.owner.instanceId)).length === 1);
    const [left] = await containers(crashed.owner.instanceId);
    expect(left?.pool).toBe('batch-crashed');
    const folder = left?.session ?? '';
    // the spare is up, then its process "crashes": nothing is cleaned
    await until(() => crashed.status(folder)?.status === 'ready');
    expect(readdirSync(markers)).toEqual([`${folder}.json`]);
    expect(existsSync(join(workspaces, folder))).toBe(true);

    const next = new SandboxManager();
    try {
      const swept = await next.sweepOrphans();
      expect(swept.removed).toContain(left?.id);
      expect(await containers(crashed.owner.instanceId)).toEqual([]);
      expect(sweepWarmPoolFolders(markers, workspaces, next.owner)).toEqual([folder]);
      expect(existsSync(join(workspaces, folder))).toBe(false);
      expect(readdirSync(markers)).toEqual([]);
    } finally {
      await next.dispose();
      await docker('rm', '-f', left?.id ?? '').catch(() => undefined);
    }
  }, 120_000);
});

async function until(probe: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
