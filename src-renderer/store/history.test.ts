import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/ipc';
import { ALL_HISTORY, filterHistory, historyFacets } from './history';
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
]);
const ids = (filters: Partial<typeof ALL_HISTORY>) =>
  filterHistory(data.runs, data.order, { ...ALL_HISTORY, ...filters }, NOW).map((r) => r.runId);

describe('filterHistory', () => {
  it('lists every run newest first without filters', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd']);
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
    expect(ids({ model: 'gpt-4o' })).toEqual(['a', 'c', 'd']);
    expect(ids({ date: 'today' })).toEqual(['a']);
    expect(ids({ date: '7d' })).toEqual(['a', 'b']);
    expect(ids({ date: '30d' })).toEqual(['a', 'b', 'c']);
  });
  it('offers the agents and models present', () => {
    expect(historyFacets(data.runs, data.order)).toEqual({
      agents: ['manus', 'swe'],
      models: ['gpt-4o', 'gpt-4o-mini'],
    });
  });
});
