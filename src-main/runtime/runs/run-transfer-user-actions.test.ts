/**
 * Export and import carry what the user typed into a run's terminal (issue 32): its
 * user-actions log travels as `{"userAction":…}` lines after the events and is that run's
 * log again where it is imported; readers of the file skip the lines quietly; a record
 * edited into another run's, or without its fields, is said and left out.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent } from '@shared/events';
import type { UserCommandRecord } from '@shared/domain/terminal';
import { UserActionsLog } from '../terminal/user-actions-log';
import { readForComparison } from './compare-reader';
import { parseRunLog } from './run-log';
import { RunStore } from './run-store';
import { exportRun, importRun } from './run-transfer';

const RUN = '20261202T000000-0000abcd';
const quiet = { onWarning: () => {} };
const newStore = () => new RunStore(mkdtempSync(join(tmpdir(), 'wb-transfer-ua-')), quiet);

function recordRun(store: RunStore): void {
  const s = createEventStamper(RUN, () => 1_700_000_000_000);
  const events: RunEvent[] = [
    s.stamp({
      type: 'run.started',
      agent: 'a',
      task: 't',
      maxSteps: 3,
      model: 'm',
      sessionId: 's',
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

const typed = (command: string, output: string, exitCode: number | null) => ({
  type: 'user.command' as const,
  runId: RUN,
  ts: 1_700_000_001_000,
  command,
  output,
  exitCode,
  durationMs: 12,
  timedOut: false,
  runState: 'finished' as const,
  containerId: 'c1',
});

describe('exportRun / importRun with user actions', () => {
  it('round-trips the run’s terminal commands into the imported run’s user-actions log', () => {
    const from = newStore();
    recordRun(from);
    const log = new UserActionsLog(from.dir);
    log.append(typed('ls -la', 'total 0\n', 0));
    log.append(typed('cat missing', 'cat: missing: No such file\n', 1));
    const originals = log.read(RUN);

    const exported = exportRun(from, RUN, log);
    const lines = exported.content.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('{"userAction":'))).toHaveLength(2);
    // readers of the file see the events only, without a warning
    const parsed = parseRunLog(exported.content, null, 'x.jsonl');
    expect(parsed.events.map((e) => e.type)).toEqual(['run.started', 'run.finished']);
    expect(parsed.warnings).toEqual([]);
    expect(readForComparison(exported.content, RUN).warnings).toEqual([]);

    const to = newStore();
    const toLog = new UserActionsLog(to.dir);
    const result = importRun(to, exported.content, 'x.jsonl', undefined, toLog);
    expect(result.warnings).toEqual([]);
    expect(toLog.read(RUN)).toEqual(originals);
    // and exported again from there, the same user-action lines
    const actionLines = (content: string) =>
      content
        .split('\n')
        .filter((l) => l.startsWith('{"userAction":'))
        .map((l) => JSON.parse(l) as unknown);
    expect(actionLines(exportRun(to, RUN, toLog).content)).toEqual(actionLines(exported.content));
  });

  it('leaves out a record of another run or without its fields, and says so', () => {
    const from = newStore();
    recordRun(from);
    const good: UserCommandRecord = { ...typed('pwd', '/workspace\n', 0), seq: 1 };
    const content = [
      exportRun(from, RUN).content.trimEnd(),
      JSON.stringify({ userAction: good }),
      JSON.stringify({ userAction: { ...good, seq: 2, runId: '20991231T000000-00000000' } }),
      JSON.stringify({ userAction: { ...good, seq: 3, command: 42 } }),
      JSON.stringify({ userAction: { ...good, seq: 4, extra: 'not kept' } }),
    ].join('\n');
    const to = newStore();
    const toLog = new UserActionsLog(to.dir);
    const result = importRun(to, content, 'x.jsonl', undefined, toLog);
    expect(result.warnings).toEqual([
      "x.jsonl line 4: a user action names another run than the file's; skipped",
      'x.jsonl line 5: a user action has no command or output text; skipped',
    ]);
    expect(toLog.read(RUN)).toEqual([good, { ...good, seq: 4 }]);
  });

  it('says when the history it goes into keeps no user actions', () => {
    const from = newStore();
    recordRun(from);
    const log = new UserActionsLog(from.dir);
    log.append(typed('ls', '', 0));
    const result = importRun(newStore(), exportRun(from, RUN, log).content, 'x.jsonl');
    expect(result.warnings).toEqual([
      'x.jsonl: this history keeps no user actions; its terminal commands were not kept',
    ]);
  });
});
