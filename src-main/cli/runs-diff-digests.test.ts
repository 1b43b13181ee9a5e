/**
 * Issue 27: `workbench runs diff` reads a finished run of the history from its stored step
 * digests (the compare view's `<runId>.compare.json` / `.compare.steps`), not from its
 * log, and says exactly what it said from the log: text and --json, two runs and more.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '@shared/events';
import { RunScript } from '../../src-renderer/testing/run-script';
import { RunStore } from '../runtime/runs/run-store';
import { runsDiffCommand } from './commands/runs-diff';

function run(runId: string, replies: string[], outcome: 'finished' | 'error' = 'finished') {
  const script = new RunScript(runId).start('compare me');
  for (const [i, reply] of replies.entries()) {
    script.addStep({ content: reply, calls: [{ name: 'bash', args: { i }, output: `out ${i}` }] });
    script.endStep();
  }
  return script.finish(outcome).events;
}

let home: string;
let previousHome: string | undefined;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'wb-runs-diff-'));
  previousHome = process.env['WORKBENCH_HOME'];
  process.env['WORKBENCH_HOME'] = home;
});
afterEach(() => {
  if (previousHome === undefined) delete process.env['WORKBENCH_HOME'];
  else process.env['WORKBENCH_HOME'] = previousHome;
  vi.restoreAllMocks();
});

function writeRuns(runs: RunEvent[][]) {
  const dir = join(home, 'runs');
  new RunStore(dir).close();
  for (const events of runs) {
    writeFileSync(
      join(dir, `${events[0]!.runId}.jsonl`),
      events.map((e) => `${JSON.stringify(e)}\n`).join(''),
    );
  }
  return dir;
}

/** Runs the command on a store of its own; what it printed, its exit code, the logs it read. */
function diff(dir: string, args: string[]) {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const logsRead: string[] = [];
  const code = runsDiffCommand(args, () => {
    const store = new RunStore(dir, { onWarning: () => {} });
    const readText = store.readText.bind(store);
    store.readText = (runId) => {
      logsRead.push(runId);
      return readText(runId);
    };
    return store;
  });
  vi.restoreAllMocks();
  return { out, code, logsRead };
}

describe('runs diff from stored digests', () => {
  it('reads no log once the digests are stored, and prints the same', () => {
    const dir = writeRuns([
      run('20260101T000000-aaaaaaaa', ['first', 'second', 'third']),
      run('20260101T000001-bbbbbbbb', ['first', 'другой second', 'third', 'fourth'], 'error'),
      run('20260101T000002-cccccccc', ['first']),
    ]);
    const cases = [
      ['20260101T000000-aaaaaaaa', '20260101T000001-bbbbbbbb'],
      ['20260101T000000-aaaaaaaa', '20260101T000001-bbbbbbbb', '--json'],
      ['20260101T000000-aaaaaaaa', '20260101T000001-bbbbbbbb', '20260101T000002-cccccccc'],
      ['20260101T000002-cccccccc', '20260101T000000-aaaaaaaa', '20260101T000001', '--json'],
    ];
    // from the logs: the digests are stored beside them
    const fromLogs = cases.map((args) => diff(dir, args));
    expect(fromLogs[0]!.logsRead).toHaveLength(2);
    expect(fromLogs[0]!.code).toBe(1);
    expect(existsSync(join(dir, '20260101T000000-aaaaaaaa.compare.steps'))).toBe(true);
    for (const [i, args] of cases.entries()) {
      const fromDigests = diff(dir, args);
      expect(fromDigests.logsRead, args.join(' ')).toEqual([]);
      expect(fromDigests.out, args.join(' ')).toBe(fromLogs[i]!.out);
      expect(fromDigests.code).toBe(fromLogs[i]!.code);
    }
  });

  it('a log that changed after its digests were stored is read again', () => {
    const dir = writeRuns([
      run('20260101T000000-aaaaaaaa', ['first', 'second']),
      run('20260101T000001-bbbbbbbb', ['first', 'second']),
    ]);
    const args = ['20260101T000000-aaaaaaaa', '20260101T000001-bbbbbbbb'];
    expect(diff(dir, args).code).toBe(0);
    // the second run's history replaced by a different one (same id)
    writeRuns([run('20260101T000001-bbbbbbbb', ['first', 'not the second at all'])]);
    const again = diff(dir, args);
    expect(again.logsRead).toEqual(['20260101T000001-bbbbbbbb']);
    expect(again.code).toBe(1);
  });
});
