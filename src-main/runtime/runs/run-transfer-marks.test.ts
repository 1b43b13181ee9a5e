/**
 * Export and import keep a renamed run's title, and importing a run the history already
 * holds is said, never silent (issue 25 item 11): the same events change nothing, other
 * events under that run id are refused.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent } from '@shared/events';
import { readForComparison } from './compare-reader';
import { parseRunLog, parseRunLogPage } from './run-log';
import { RunStore } from './run-store';
import { exportRun, importRun, RunTransferError } from './run-transfer';

const newStore = () =>
  new RunStore(mkdtempSync(join(tmpdir(), 'wb-transfer-marks-')), { onWarning: () => {} });

function recordRun(store: RunStore, runId: string, answer = 'done'): void {
  const s = createEventStamper(runId, () => 1_700_000_000_000);
  const events: RunEvent[] = [
    s.stamp({
      type: 'run.started',
      agent: 'a',
      task: 'the task',
      maxSteps: 3,
      model: 'm',
      sessionId: 's',
    }),
    s.stamp({
      type: 'memory.appended',
      agent: 'a',
      index: 0,
      message: { role: 'assistant', content: answer },
    }),
    s.stamp({
      type: 'run.finished',
      outcome: 'finished',
      state: 'FINISHED',
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    }),
  ];
  for (const event of events) store.append(event, JSON.stringify(event));
}

function conflictOf(action: () => unknown): RunTransferError {
  try {
    action();
  } catch (error) {
    if (error instanceof RunTransferError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('export and import of a renamed run', () => {
  it('the title survives export → import', () => {
    const from = newStore();
    recordRun(from, 'run-a');
    from.rename('run-a', 'Baseline with gpt-4o');
    const exported = exportRun(from, 'run-a').content;
    expect(exported.trimEnd().split('\n').at(-1)).toBe('{"runTitle":"Baseline with gpt-4o"}');

    const to = newStore();
    const result = importRun(to, exported, 'run-a.jsonl');
    expect(result.warnings).toEqual([]);
    expect(result.summary).toMatchObject({ title: 'Baseline with gpt-4o', isImported: true });
    // kept beside the log, as a rename: it survives a new reading of the folder
    to.close();
    const reopened = new RunStore(to.dir, { onWarning: () => {} });
    expect(reopened.summary('run-a')?.title).toBe('Baseline with gpt-4o');
    // and travels on: exported again from there
    expect(exportRun(reopened, 'run-a').content).toBe(exported);
  });

  it('an untitled run exports no title line; readers skip the title line quietly', () => {
    const from = newStore();
    recordRun(from, 'run-b');
    expect(exportRun(from, 'run-b').content).not.toContain('runTitle');
    from.rename('run-b', 'named');
    const content = exportRun(from, 'run-b').content;
    expect(parseRunLog(content, null, 'x.jsonl')).toMatchObject({ warnings: [] });
    expect(parseRunLog(content, null, 'x.jsonl').events).toHaveLength(3);
    const page = parseRunLogPage(content, null, 'x.jsonl', { afterSeq: 0, limit: 3 });
    expect([page.events.length, page.hasMore, page.warnings]).toEqual([3, false, []]);
    expect(readForComparison(content, 'run-b').warnings).toEqual([]);
  });

  it('cleans a title as a rename does, and says when the file holds no usable one', () => {
    const from = newStore();
    recordRun(from, 'run-c');
    const events = exportRun(from, 'run-c').content;
    const to = newStore();
    const result = importRun(to, `${events}{"runTitle":"  two\\nlines\\u0007 "}\n`, 'f.jsonl');
    expect(result.summary.title).toBe('two lines');
    const other = newStore();
    const bad = importRun(other, `${events}{"runTitle":42}\n`, 'g.jsonl');
    expect(bad.summary.title).toBeUndefined();
    expect(bad.warnings).toEqual(['g.jsonl line 4: not a usable title; skipped']);
  });
});

describe('importing a run the history already holds', () => {
  it('the same file twice: said, nothing changes', () => {
    const from = newStore();
    recordRun(from, 'run-d');
    from.rename('run-d', 'first name');
    const file = exportRun(from, 'run-d').content;
    const to = newStore();
    importRun(to, file, 'run-d.jsonl');
    const again = importRun(to, file, 'run-d.jsonl');
    expect(again).toMatchObject({
      isAlreadyPresent: true,
      warnings: [],
      summary: { runId: 'run-d', title: 'first name' },
    });
    expect(to.list()).toHaveLength(1);
    // a rename here is kept; the file's other title is mentioned, not applied
    to.rename('run-d', 'my name');
    const renamed = importRun(to, file, 'run-d.jsonl');
    expect(renamed.isAlreadyPresent).toBe(true);
    expect(renamed.summary.title).toBe('my name');
    expect(renamed.warnings).toEqual([
      'run-d.jsonl names the run "first name"; the history keeps "my name" (rename it to change that)',
    ]);
  });

  it('a run exported from this history and imported back into it: already there', () => {
    const store = newStore();
    recordRun(store, 'run-e');
    const result = importRun(store, exportRun(store, 'run-e').content, 'run-e.jsonl');
    expect(result.isAlreadyPresent).toBe(true);
    expect(store.summary('run-e')?.isImported).toBeUndefined();
  });

  it('a changed file under a run id the history holds is refused, and the run is kept', () => {
    const from = newStore();
    recordRun(from, 'run-f', 'the answer here');
    const to = newStore();
    importRun(to, exportRun(from, 'run-f').content, 'run-f.jsonl');
    const changed = newStore();
    recordRun(changed, 'run-f', 'another answer');
    const error = conflictOf(() =>
      importRun(to, exportRun(changed, 'run-f').content, 'run-f-edited.jsonl'),
    );
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      'run-f-edited.jsonl: run run-f is already in the history, with other events (3 there, 3 in the file); nothing imported. An import never replaces a run: delete it first to import this file instead',
    );
    expect(to.read('run-f')?.lines.join('\n')).toContain('the answer here');
  });

  it('refuses a run that is running here', () => {
    const from = newStore();
    recordRun(from, 'run-g');
    const error = conflictOf(() =>
      importRun(newStore(), exportRun(from, 'run-g').content, 'g.jsonl', () => true),
    );
    expect(error.message).toBe('g.jsonl: run run-g is running here; nothing imported');
  });
});
