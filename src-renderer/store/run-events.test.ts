import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/ipc';
import { summarize } from '@shared/run-summary';
import { tallyHealth } from '../testing/health-tally';
import { RunScript } from '../testing/run-script';
import { stuckRun } from '../testing/stuck-run';
import {
  applyEventBatch,
  emptyRunsData,
  mergeSummaries,
  removeRuns,
  runStatus,
} from './run-events';

function sampleRun(runId: string) {
  const script = new RunScript(runId, 'manus', { maxSteps: 3 }).start('t');
  script.addStep({ content: 'hi' });
  script.endStep();
  return script.finish().events;
}

const summary = (patch: Partial<RunSummary>): RunSummary => ({
  runId: 'x',
  agent: 'swe',
  task: 'old',
  model: 'm',
  startedAt: 0,
  state: 'FINISHED',
  outcome: 'finished',
  steps: 1,
  maxSteps: 1,
  usage: { prompt: 0, completion: 0 },
  ...patch,
});

describe('applyEventBatch', () => {
  it('appends events per run, derives the summary and folds the timeline once per batch', () => {
    const events = sampleRun('a');
    const data = applyEventBatch(
      applyEventBatch(emptyRunsData, events.slice(0, 3)),
      events.slice(3),
    );
    expect(data.order).toEqual(['a']);
    const run = data.runs['a']!;
    expect(run.eventCount).toBe(events.length);
    expect(run.firstEvent).toBe(events[0]);
    expect(run.summary).toMatchObject({
      state: 'FINISHED',
      outcome: 'finished',
      steps: 1,
      maxSteps: 3,
    });
    expect(run.timeline.lastSeq).toBe(events.length);
    expect(run.timeline.items.some((i) => i.kind === 'finished')).toBe(true);
  });

  it('skips events already applied, so overlapping pushes never duplicate', () => {
    const events = sampleRun('a');
    const once = applyEventBatch(emptyRunsData, events.slice(0, 4));
    const twice = applyEventBatch(once, events.slice(2));
    expect(twice.runs['a']?.eventCount).toBe(events.length);
    expect(twice.runs['a']?.lastSeq).toBe(events.at(-1)!.seq);
    expect(twice.runs['a']?.timeline.eventCount).toBe(events.length);
  });

  it('does not mutate the previous state', () => {
    const events = sampleRun('a');
    const first = applyEventBatch(emptyRunsData, events.slice(0, 2));
    const before = first.runs['a']!.eventCount;
    const items = first.runs['a']!.timeline.items.length;
    applyEventBatch(first, events.slice(2));
    expect(first.runs['a']!.eventCount).toBe(before);
    expect(first.runs['a']!.timeline.items.length).toBe(items);
  });

  it('keeps runs apart within one batch', () => {
    const a = sampleRun('a');
    const b = sampleRun('b');
    const mixed = a.flatMap((e, i) => (b[i] ? [e, b[i]!] : [e]));
    const data = applyEventBatch(emptyRunsData, mixed);
    expect(data.runs['a']?.eventCount).toBe(a.length);
    expect(data.runs['b']?.eventCount).toBe(b.length);
    expect(data.order).toEqual(['b', 'a']);
  });
});

describe('mergeSummaries', () => {
  it('keeps live runs when the history list arrives later, and sorts newest first', () => {
    const live = applyEventBatch(emptyRunsData, sampleRun('b'));
    const merged = mergeSummaries(live, [
      summary({ runId: 'b', agent: 'x', task: 'stale', state: 'RUNNING', startedAt: 1 }),
      summary({ runId: 'old', startedAt: 0 }),
    ]);
    expect(merged.runs['b']?.summary?.agent).toBe('manus');
    expect(merged.order).toEqual(['b', 'old']);
  });

  it('takes over the interrupted flag for a run it holds events of', () => {
    const script = new RunScript('c').start('t');
    const live = applyEventBatch(emptyRunsData, script.events);
    const merged = mergeSummaries(live, [
      summary({ runId: 'c', outcome: undefined, state: 'RUNNING', isInterrupted: true }),
    ]);
    expect(runStatus(merged.runs['c']!.summary!)).toBe('interrupted');
    expect(runStatus(live.runs['c']!.summary!)).toBe('running');
  });
});

describe('titles and deletions from the history', () => {
  it('keeps a title through its run.started being folded, takes a new one, forgets deleted runs', () => {
    const events = sampleRun('a');
    let data = mergeSummaries(emptyRunsData, [summary({ runId: 'a', title: 'Named' })]);
    data = applyEventBatch(data, events);
    expect(data.runs['a']?.summary?.title).toBe('Named');
    expect(data.runs['a']?.summary?.task).toBe('t');
    data = mergeSummaries(data, [summary({ runId: 'a', title: 'Renamed' })]);
    expect(data.runs['a']?.summary).toMatchObject({ title: 'Renamed', task: 't' });
    data = mergeSummaries(data, [summary({ runId: 'a' })]);
    expect(data.runs['a']?.summary?.title).toBeUndefined();
    data = removeRuns(data, ['a', 'unknown']);
    expect(data.runs['a']).toBeUndefined();
    expect(data.order).toEqual([]);
  });
});

describe('a finished run loading in slices', () => {
  it('keeps its final summary until the slices reach the end', () => {
    const events = sampleRun('a');
    const final = applyEventBatch(emptyRunsData, events).runs['a']!.summary!;
    let data = mergeSummaries(emptyRunsData, [final]);
    data = applyEventBatch(data, events.slice(0, 3));
    expect(data.runs['a']?.summary).toMatchObject({ outcome: 'finished', state: 'FINISHED' });
    data = applyEventBatch(data, events.slice(3));
    expect(data.runs['a']?.summary).toEqual(final);
  });

  it('counts each event once: later slices are not folded into the final summary (issue 25)', () => {
    const events = stuckRun('a', 40);
    const final: RunSummary = { ...summarize(events)!, lastSeq: events.at(-1)!.seq };
    let data = mergeSummaries(emptyRunsData, [final]);
    for (let at = 0; at < events.length; at += 100) {
      data = applyEventBatch(data, events.slice(at, at + 100));
      expect(data.runs['a']?.summary?.health).toEqual(tallyHealth(events));
    }
    expect(data.runs['a']?.summary).toEqual(final);
    expect(data.runs['a']?.folded?.health).toEqual(tallyHealth(events));
  });

  it('keeps what only the history knows through the fold: interrupted, imported, the title', () => {
    const events = stuckRun('a', 40, { isUnfinished: true });
    const known: RunSummary = {
      ...summarize(events)!,
      lastSeq: events.at(-1)!.seq,
      title: 'Looping',
      isInterrupted: true,
      isImported: true,
    };
    let data = mergeSummaries(emptyRunsData, [known]);
    data = applyEventBatch(data, events.slice(0, 100));
    data = applyEventBatch(data, events.slice(100));
    expect(data.runs['a']?.summary).toEqual(known);
  });
});
