import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/ipc';
import { ALL_HISTORY, filterHistory, historyFacets, nestForks } from './history';
import { groupBatches, type HistoryEntry } from './history-batches';
import { mergeSummaries, emptyRunsData } from './run-events';

const NOW = new Date('2025-06-15T15:00:00').getTime();
const DAY = 86_400_000;

function s(runId: string, patch: Partial<RunSummary>): RunSummary {
  return {
    runId,
    agent: 'manus',
    task: `task ${runId}`,
    model: 'gpt-4o',
    startedAt: NOW - 1000,
    state: 'FINISHED',
    outcome: 'finished',
    steps: 1,
    maxSteps: 20,
    usage: { prompt: 0, completion: 0 },
    ...patch,
  };
}

const data = mergeSummaries(emptyRunsData, [
  s('a', { task: 'Fix the flaky test', agent: 'swe' }),
  s('b', { outcome: 'error', state: 'ERROR', model: 'gpt-4o-mini', startedAt: NOW - 3 * DAY }),
  s('c', { outcome: undefined, state: 'RUNNING', startedAt: NOW - 10 * DAY }),
  s('d', { outcome: undefined, state: 'RUNNING', isInterrupted: true, startedAt: NOW - 40 * DAY }),
  s('e', {
    startedAt: NOW - 2000,
    health: { toolCalls: 4, toolErrors: 2, stuck: 0, duplicates: 0, retries: 0 },
  }),
  s('f', {
    startedAt: NOW - 3000,
    health: { toolCalls: 4, toolErrors: 0, stuck: 1, duplicates: 2, retries: 0 },
  }),
]);
const ids = (filters: Partial<typeof ALL_HISTORY>) =>
  filterHistory(data.runs, data.order, { ...ALL_HISTORY, ...filters }, NOW).map((r) => r.runId);

describe('filterHistory', () => {
  it('lists every run newest first without filters', () => {
    expect(ids({})).toEqual(['a', 'e', 'f', 'b', 'c', 'd']);
  });
  it('searches task, run id, model and agent', () => {
    expect(ids({ text: 'FLAKY' })).toEqual(['a']);
    expect(ids({ text: 'mini' })).toEqual(['b']);
  });
  it('filters by status, agent, model and date', () => {
    expect(ids({ status: 'error' })).toEqual(['b']);
    expect(ids({ status: 'running' })).toEqual(['c']);
    expect(ids({ status: 'interrupted' })).toEqual(['d']);
    expect(ids({ agent: 'swe' })).toEqual(['a']);
    expect(ids({ model: 'gpt-4o' })).toEqual(['a', 'e', 'f', 'c', 'd']);
    expect(ids({ date: 'today' })).toEqual(['a', 'e', 'f']);
    expect(ids({ date: '7d' })).toEqual(['a', 'e', 'f', 'b']);
    expect(ids({ date: '30d' })).toEqual(['a', 'e', 'f', 'b', 'c']);
  });
  it('filters runs that had errors (failed runs, failed tool calls) and runs that got stuck', () => {
    expect(ids({ isErrorsOnly: true })).toEqual(['e', 'b', 'd']);
    expect(ids({ isStuckOnly: true })).toEqual(['f']);
    expect(ids({ isErrorsOnly: true, isStuckOnly: true })).toEqual([]);
  });
  it('offers the agents and models present', () => {
    expect(historyFacets(data.runs, data.order)).toEqual({
      agents: ['manus', 'swe'],
      agentVersions: new Map(),
      models: ['gpt-4o', 'gpt-4o-mini'],
      batches: [],
    });
  });
  it("filters a user agent's runs by version, as `runs list --agent NAME@V` does", () => {
    const versioned = mergeSummaries(emptyRunsData, [
      s('m1', { agent: 'mine', agentVersion: 1, startedAt: NOW - 1 }),
      s('m2', { agent: 'mine', agentVersion: 2, startedAt: NOW - 2 }),
      s('m2b', { agent: 'mine', agentVersion: 2, startedAt: NOW - 3 }),
      s('x', { agent: 'manus', startedAt: NOW - 4 }),
    ]);
    const of = (filters: Partial<typeof ALL_HISTORY>) =>
      filterHistory(versioned.runs, versioned.order, { ...ALL_HISTORY, ...filters }, NOW).map(
        (r) => r.runId,
      );
    expect(of({ agent: 'mine' })).toEqual(['m1', 'm2', 'm2b']);
    expect(of({ agent: 'mine', agentVersion: '2' })).toEqual(['m2', 'm2b']);
    expect(of({ agent: 'mine', agentVersion: '1' })).toEqual(['m1']);
    expect(of({ agent: 'manus' })).toEqual(['x']);
    expect(historyFacets(versioned.runs, versioned.order).agentVersions).toEqual(
      new Map([['mine', [1, 2]]]),
    );
  });
});

describe('the run tree', () => {
  it('puts forks and resumed runs under their parent, deeper each generation', () => {
    const list = [
      s('fork2', { forkOf: { runId: 'fork1', step: 1 } }),
      s('other', {}),
      s('fork1', { forkOf: { runId: 'root', step: 2 } }),
      s('resumed', { resumeOf: { runId: 'root', step: 3 } }),
      s('continued2', { continueOf: { runId: 'continued', step: 6 } }),
      s('continued', { continueOf: { runId: 'root', step: 4 } }),
      s('root', {}),
      s('orphan', { forkOf: { runId: 'deleted', step: 1 } }),
    ];
    expect(nestForks(list).map((r) => [r.summary.runId, r.depth])).toEqual([
      ['other', 0],
      ['root', 0],
      ['fork1', 1],
      ['fork2', 2],
      ['resumed', 1],
      ['continued', 1],
      ['continued2', 2],
      ['orphan', 0],
    ]);
  });

  it('lists a re-run ("Run again") right after the run it repeats, at its depth', () => {
    const list = [
      s('again', { rerunOf: 'fork1' }),
      s('fork1', { forkOf: { runId: 'root', step: 2 } }),
      s('root', {}),
    ];
    expect(nestForks(list).map((r) => [r.summary.runId, r.depth])).toEqual([
      ['root', 0],
      ['fork1', 1],
      ['again', 1],
    ]);
  });
});

describe("a batch's runs in the history (issue 25 item 6)", () => {
  const tag = (batchId: string, taskIndex: number, repeat: number) => ({
    batch: { batchId, item: `t${taskIndex}-p0-r${repeat}`, taskIndex, repeat },
  });
  const toolError = { toolCalls: 2, toolErrors: 1, stuck: 0, duplicates: 0, retries: 0 };
  // newest first, as the history orders them
  const batched = mergeSummaries(emptyRunsData, [
    s('solo-new', { startedAt: NOW - 100 }),
    s('b1-r1', { ...tag('b-one', 0, 1), startedAt: NOW - 200, health: toolError }),
    s('b1-r0', { ...tag('b-one', 0, 0), startedAt: NOW - 300 }),
    s('b1-fork', { forkOf: { runId: 'b1-r0', step: 1 }, startedAt: NOW - 250 }),
    s('solo-mid', { startedAt: NOW - 350 }),
    s('b1-t1', {
      ...tag('b-one', 1, 0),
      startedAt: NOW - 400,
      outcome: 'error',
      state: 'ERROR',
    }),
    s('b2-r0', { ...tag('b-two', 0, 0), startedAt: NOW - 500, agent: 'swe' }),
    s('solo-old', { startedAt: NOW - 600 }),
  ]);
  const rowsOf = (filters: Partial<typeof ALL_HISTORY> = {}) =>
    nestForks(filterHistory(batched.runs, batched.order, { ...ALL_HISTORY, ...filters }, NOW));
  const shape = (entries: HistoryEntry[]) =>
    entries.map((e) =>
      e.kind === 'batch' ? `[${e.batchId} ${e.runs}]` : `${e.summary.runId}@${e.depth}`,
    );

  it('puts a batch under one closed entry where its newest run was, with its counts and verdicts', () => {
    const entries = groupBatches(rowsOf(), { toggled: new Map() });
    expect(shape(entries)).toEqual([
      'solo-new@0',
      '[b-one 3]',
      'solo-mid@0',
      '[b-two 1]',
      'solo-old@0',
    ]);
    expect(entries[1]).toEqual({
      kind: 'batch',
      batchId: 'b-one',
      agent: 'manus',
      runs: 3,
      tasks: 2,
      // the badges' own verdicts: the tool error is not a plain "finished"
      tally: { finished_with_errors: 1, finished: 1, error: 1 },
      startedAt: NOW - 200,
      isOpen: false,
    });
  });

  it('lists its runs, with their forks, one level deeper when it is open or shows the selected run', () => {
    const open = groupBatches(rowsOf(), { toggled: new Map([['b-one', true]]) });
    expect(shape(open)).toEqual([
      'solo-new@0',
      '[b-one 3]',
      'b1-r1@1',
      'b1-r0@1',
      'b1-fork@2',
      'b1-t1@1',
      'solo-mid@0',
      '[b-two 1]',
      'solo-old@0',
    ]);
    // a run opened from the batch grid (or a fork of one) is in view: its batch opens
    const shown = groupBatches(rowsOf(), { toggled: new Map(), shownRunId: 'b1-fork' });
    expect(shape(shown)).toContain('b1-fork@2');
    expect(shape(shown)).toContain('[b-two 1]');
    expect(shape(shown)).not.toContain('b2-r0@1');
    // filtered for, it opens; closed by the user, it stays closed with its run shown
    expect(shape(groupBatches(rowsOf(), { toggled: new Map(), filteredBatch: 'b-two' }))).toContain(
      'b2-r0@1',
    );
    const closed = groupBatches(rowsOf(), {
      toggled: new Map([['b-one', false]]),
      shownRunId: 'b1-fork',
    });
    expect(shape(closed)).not.toContain('b1-fork@2');
  });

  it('filters by batch, or to the runs of no batch, and offers the batches present', () => {
    expect(rowsOf({ batch: 'b-one' }).map((r) => r.summary.runId)).toEqual([
      'b1-r1',
      'b1-r0',
      'b1-t1',
    ]);
    expect(rowsOf({ batch: 'none' }).map((r) => r.summary.runId)).toEqual([
      'solo-new',
      'b1-fork',
      'solo-mid',
      'solo-old',
    ]);
    expect(historyFacets(batched.runs, batched.order).batches).toEqual([
      { batchId: 'b-one', runs: 3, startedAt: NOW - 400 },
      { batchId: 'b-two', runs: 1, startedAt: NOW - 500 },
    ]);
  });

  it('groups 20,000 runs in 40 batches, the un-batched ones left as they are', () => {
    const many = mergeSummaries(
      emptyRunsData,
      Array.from({ length: 20_000 }, (_, i) =>
        s(`r${i}`, { startedAt: NOW - i, ...(i % 4 === 0 ? {} : tag(`b-${i % 40}`, i % 3, i)) }),
      ),
    );
    const group = () =>
      groupBatches(nestForks(filterHistory(many.runs, many.order, ALL_HISTORY, NOW)), {
        toggled: new Map(),
      });
    const entries = group();
    expect(entries.filter((e) => e.kind === 'batch')).toHaveLength(30);
    expect(entries).toHaveLength(5_000 + 30);
  });
});
