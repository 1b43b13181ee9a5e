import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { RunResult } from '@shared/domain/agent';
import { RunManager, type ResolvedRunInput } from '../runs/run-manager';
import { createBatchPlan } from './batch-plan';
import { BatchRunner } from './batch-runner';
import { BatchStore } from './batch-store';

/** A run manager whose runs take `ms` (stoppable), recording what they were given. */
function manager(ms: number) {
  const inputs: ResolvedRunInput[] = [];
  let live = 0;
  let most = 0;
  const runs = new RunManager(async (input) => {
    inputs.push(input);
    return {
      agentName: input.agent,
      model: input.profile ?? 'own',
      maxSteps: 3,
      execute: (_task, signal): Promise<RunResult> =>
        new Promise((resolve) => {
          // as the agents do: a stopped run ends `cancelled`
          const cancelled: RunResult = {
            outcome: 'cancelled',
            state: 'FINISHED',
            steps: 0,
            usage: { prompt: 0, completion: 0 },
            stepResults: [],
          };
          if (signal.aborted) return resolve(cancelled);
          live += 1;
          most = Math.max(most, live);
          const done = (result: () => void) => {
            live -= 1;
            result();
          };
          const timer = setTimeout(
            () =>
              done(() =>
                resolve({
                  outcome: 'finished',
                  state: 'FINISHED',
                  steps: 2,
                  usage: { prompt: 10, completion: 5 },
                  stepResults: [],
                }),
              ),
            ms,
          );
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            done(() => resolve(cancelled));
          });
        }),
    };
  });
  return { runs, inputs, most: () => most };
}

const closed: string[] = [];
function deps(runs: RunManager, store: BatchStore) {
  return { runs, store, closeSession: async (id: string) => void closed.push(id) };
}

function plan(concurrency: number) {
  return createBatchPlan({
    agent: 'toolcall',
    tasks: [{ task: 'one' }, { task: 'two', check: 'true' }],
    profiles: ['a', 'b'],
    repeat: 2,
    concurrency,
  });
}

describe('BatchRunner', () => {
  it('runs every item once, never more than `concurrency` at once, each tagged with its cell', async () => {
    const { runs, inputs, most } = manager(20);
    const events: RunEvent[] = [];
    runs.onEvent((e) => events.push(e));
    const store = new BatchStore(mkdtempSync(join(tmpdir(), 'wb-batches-')));
    const p = plan(3);
    const runner = new BatchRunner(deps(runs, store), p, store.create(p));
    const progress = await runner.run();
    expect(progress).toMatchObject({ total: 8, done: 8, running: 0, queued: 0, isComplete: true });
    expect(inputs).toHaveLength(8);
    expect(most()).toBe(3);
    // Every run in a session of its own, closed after it.
    expect(new Set(inputs.map((i) => i.batch?.item)).size).toBe(8);
    expect(closed).toEqual(
      expect.arrayContaining(
        events.flatMap((e) => (e.type === 'run.started' ? [e.sessionId] : [])),
      ),
    );
    const started = events.filter((e) => e.type === 'run.started');
    expect(started[0]).toMatchObject({
      batch: { batchId: p.batchId, item: 't0-p0-r0', taskIndex: 0, profile: 'a', repeat: 0 },
    });
    expect(inputs.find((i) => i.task === 'two')).toMatchObject({
      check: 'true',
      ignoreSavedBreakpoints: true,
    });
    const grid = runner.grid();
    expect(grid.cells[1]?.[1]).toMatchObject({ finished: 2, steps: 4, tokens: 30 });
    expect(store.load(p.batchId).state.isComplete).toBe(true);
  });

  it('stops: live runs are stopped and go back to the queue; a resume runs only those left', async () => {
    const { runs, inputs } = manager(200);
    const store = new BatchStore(mkdtempSync(join(tmpdir(), 'wb-batches-')));
    const p = plan(2);
    const runner = new BatchRunner(deps(runs, store), p, store.create(p));
    const seen: number[] = [];
    runner.onProgress((pr) => seen.push(pr.done));
    const done = runner.run();
    await until(() => seen.includes(2));
    runner.stop();
    const stopped = await done;
    expect(stopped).toMatchObject({ isStopped: true, isComplete: false });
    const saved = store.load(p.batchId);
    expect(saved.state.isStopped).toBe(true);
    const finished = Object.values(saved.state.items).filter((i) => i.status === 'done');
    expect(finished.length).toBeGreaterThanOrEqual(2);
    const before = inputs.length;

    const resumed = new BatchRunner(deps(runs, store), saved.plan, saved.state);
    expect(await resumed.run()).toMatchObject({ done: 8, isComplete: true, isStopped: false });
    expect(inputs.length - before).toBe(8 - finished.length);
    for (const item of finished)
      expect(Object.values(store.load(p.batchId).state.items)).toContainEqual(item);
  });

  it('after a kill: a `running` item whose run finished is done; one whose run died runs again', async () => {
    const { runs, inputs } = manager(5);
    const store = new BatchStore(mkdtempSync(join(tmpdir(), 'wb-batches-')));
    const p = createBatchPlan({
      agent: 'toolcall',
      tasks: [{ task: 'x' }],
      profiles: [],
      repeat: 2,
      concurrency: 1,
    });
    const state = store.create(p);
    // r0: its run finished before the kill, the state was not saved yet; r1: stopped (a resume runs it again)
    const finishedRun = runs.start({ task: 'x', agent: 'toolcall' });
    await finishedRun.done;
    const deadRun = runs.start({ task: 'x', agent: 'toolcall' });
    runs.stop(deadRun.runId);
    await deadRun.done;
    const killed = {
      ...state,
      items: {
        't0-p0-r0': { status: 'running' as const, runId: finishedRun.runId },
        't0-p0-r1': { status: 'running' as const, runId: deadRun.runId },
      },
    };
    inputs.length = 0;
    const progress = await new BatchRunner(deps(runs, store), p, killed).run();
    expect(progress).toMatchObject({ done: 2, isComplete: true });
    expect(inputs.map((i) => i.batch?.item)).toEqual(['t0-p0-r1']);
    expect(store.load(p.batchId).state.items['t0-p0-r0']).toEqual({
      status: 'done',
      runId: finishedRun.runId,
    });
  });
});

describe('BatchRunner for an experiment', () => {
  it('runs each column with its own agent and profile, and hands each task its scoring', async () => {
    const { runs, inputs } = manager(1);
    const store = new BatchStore(mkdtempSync(join(tmpdir(), 'wb-batches-')));
    const scoring = {
      scorers: [{ name: 'a', kind: 'answer' as const, match: 'exact' as const }],
      expected: '4',
    };
    const p = createBatchPlan({
      agent: 'toolcall',
      agents: [
        { agent: 'toolcall' },
        { agent: 'swe', agentRef: 'mine@2', agentLabel: 'mine@2' },
        { agent: 'swe' },
      ],
      tasks: [{ task: 'x', scoring }],
      profiles: ['a', 'a', 'a'],
      repeat: 1,
      concurrency: 1,
    });
    await new BatchRunner(deps(runs, store), p, store.create(p)).run();
    // a user's agent column runs its pinned version, carried by the built-in it shares needs with
    expect(inputs.map((i) => [i.agent, i.agentRef, i.profile, i.scoring])).toEqual([
      ['toolcall', undefined, 'a', scoring],
      ['swe', 'mine@2', 'a', scoring],
      ['swe', undefined, 'a', scoring],
    ]);
    expect(() =>
      createBatchPlan({
        ...p,
        agents: [{ agent: 'swe' }, { agent: 'swe' }],
        profiles: ['a', 'a'],
        concurrency: 1,
      }),
    ).toThrow(/variant \(agent and profile\) is named twice/);
  });
});

async function until(probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
