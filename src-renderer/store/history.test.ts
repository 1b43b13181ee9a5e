import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/ipc';
import { ALL_HISTORY, filterHistory, historyFacets, nestForks } from './history';
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
      models: ['gpt-4o', 'gpt-4o-mini'],
    });
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
