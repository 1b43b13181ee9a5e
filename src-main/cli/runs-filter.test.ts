/** `runs list --limit --agent --status --batch` (issue 25 item 8). */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/ipc';
import { describeFilter, filterRuns, parseRunsFilter } from './runs-filter';
import { UsageError } from './usage-error';

function run(runId: string, extra: Partial<RunSummary> = {}): RunSummary {
  return {
    runId,
    agent: 'manus',
    task: 't',
    model: 'm',
    startedAt: 0,
    state: 'FINISHED',
    outcome: 'finished',
    steps: 1,
    maxSteps: 20,
    usage: { prompt: 0, completion: 0 },
    ...extra,
  };
}

const batch = (batchId: string) => ({ batchId, item: 't0-p0-r0', taskIndex: 0, repeat: 0 });

// newest first, as the history lists them
const runs = [
  run('r5', { agent: 'swe', outcome: 'error', state: 'ERROR' }),
  run('r4', { agent: 'swe', batch: batch('b1') }),
  run('r3', { outcome: 'cancelled' }),
  run('r2', {
    health: { toolCalls: 3, toolErrors: 1, stuck: 0, duplicates: 0, retries: 0 },
  }),
  run('r1', { outcome: undefined, isInterrupted: true, agent: 'swe', batch: batch('b1') }),
];
const ids = (filter: Parameters<typeof parseRunsFilter>[0]) =>
  filterRuns(runs, parseRunsFilter(filter)).map((r) => r.runId);

describe('runs list filters', () => {
  it('--limit keeps the newest N, after the other filters', () => {
    expect(ids({ limit: '2' })).toEqual(['r5', 'r4']);
    expect(ids({ agent: 'swe', limit: '2' })).toEqual(['r5', 'r4']);
    expect(ids({})).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
  });

  it('--agent, --batch and --status (the verdict the STATUS column shows)', () => {
    expect(ids({ agent: 'manus' })).toEqual(['r3', 'r2']);
    expect(ids({ batch: 'b1' })).toEqual(['r4', 'r1']);
    expect(ids({ status: ['error'] })).toEqual(['r5']);
    expect(ids({ status: ['finished'] })).toEqual(['r4']);
    expect(ids({ status: ['finished_with_errors', 'interrupted'] })).toEqual(['r2', 'r1']);
    expect(ids({ status: ['cancelled,error'] })).toEqual(['r5', 'r3']);
    expect(ids({ agent: 'swe', status: ['finished', 'interrupted'], batch: 'b1' })).toEqual([
      'r4',
      'r1',
    ]);
  });

  it('--agent NAME@V keeps one version of a user agent; --agent NAME all of them', () => {
    const versions = [
      run('v3', { agent: 'mine', agentVersion: 3 }),
      run('v2', { agent: 'mine', agentVersion: 2 }),
      run('o', { agent: 'other', agentVersion: 2 }),
    ];
    const pick = (agent: string) =>
      filterRuns(versions, parseRunsFilter({ agent })).map((r) => r.runId);
    expect(pick('mine@2')).toEqual(['v2']);
    expect(pick('mine')).toEqual(['v3', 'v2']);
    expect(pick('mine@9')).toEqual([]);
  });

  it('refuses a bad --limit or an unknown --status, naming the choices', () => {
    expect(() => parseRunsFilter({ limit: '0' })).toThrow(UsageError);
    expect(() => parseRunsFilter({ limit: 'ten' })).toThrow(/--limit must be a positive integer/);
    expect(() => parseRunsFilter({ status: ['failed'] })).toThrow(
      /unknown --status "failed" \(running, paused, finished, finished_with_errors, .*interrupted\)/,
    );
  });

  it('says what a list that came out empty was asked for', () => {
    expect(describeFilter(parseRunsFilter({ agent: 'swe', status: ['error,cancelled'] }))).toBe(
      '--agent swe, --status error,cancelled',
    );
    expect(describeFilter(parseRunsFilter({ limit: '3' }))).toBe('');
  });
});
