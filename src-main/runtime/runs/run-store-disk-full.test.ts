/**
 * The run history stays truthful when the disk fails it (issue 12 item 9). Before: a run
 * that finished on a full disk showed as "interrupted", and a log emptied after the run
 * ended still showed "finished 25/30" with nothing behind it. Here the disk is a fake
 * that fills up at a chosen byte (the same failure as ENOSPC from a real one; the
 * integration test uses a real full tmpfs).
 */
import { ftruncateSync, mkdtempSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import { RunManager } from './run-manager';
import { parseRunLog } from './run-log';
import { RunLogWriter, type LogIo } from './run-log-writer';
import { RunStore } from './run-store';

/** A disk of `capacity` bytes for the logs; a write past it is cut short, then refused. */
function fillingDisk(capacity: number): LogIo & { free(bytes: number): void; used(): number } {
  let used = 0;
  let room = capacity;
  return {
    write(fd, data) {
      if (used >= room) {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        });
      }
      const n = Math.min(room - used, data.length);
      writeSync(fd, data.subarray(0, n));
      used += n;
      return n;
    },
    truncate(fd, size) {
      ftruncateSync(fd, size);
      used = size;
    },
    free(bytes) {
      room += bytes;
    },
    used: () => used,
  };
}

function runEvents(runId: string, steps: number, maxSteps = 30): RunEvent[] {
  const s = createEventStamper(runId, () => 1_700_000_000_000);
  const payloads: RunEventPayload[] = [
    { type: 'run.started', agent: 'swe', task: 't', maxSteps, model: 'm', sessionId: 's' },
    { type: 'state.changed', agent: 'swe', from: 'IDLE', to: 'RUNNING' },
  ];
  for (let step = 1; step <= steps; step++) {
    payloads.push({ type: 'step.started', agent: 'swe', step, maxSteps });
  }
  payloads.push({
    type: 'run.finished',
    outcome: 'finished',
    state: 'FINISHED',
    steps,
    usage: { prompt: 10, completion: 20 },
  });
  return payloads.map((p) => s.stamp(p));
}

const write = (store: RunStore, events: RunEvent[]) => {
  for (const e of events) store.append(e, JSON.stringify(e));
};

describe('a run that ends on a full disk', () => {
  it('is shown as finished with its history incomplete, now and after a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-full-'));
    const warnings: string[] = [];
    const disk = fillingDisk(700); // room for the first few events, cut in the middle of one
    const store = new RunStore(dir, { logIo: disk, onWarning: (w) => warnings.push(w) });
    write(store, runEvents('r1', 25));

    const now = store.list()[0];
    expect(now).toMatchObject({ runId: 'r1', outcome: 'finished', steps: 25 });
    expect(now?.isInterrupted).toBeUndefined();
    expect(now?.historyIncomplete).toMatch(
      /(no space left on device|the disk is full).*events after #\d+ were not saved/,
    );
    // No torn line: the cut write was undone, the log is a clean prefix.
    const log = parseRunLog(readFileSync(join(dir, 'r1.jsonl'), 'utf8'), 'r1', 'r1.jsonl');
    expect(log.warnings).toEqual([]);
    expect(now?.lastSeq).toBe(log.events.at(-1)?.seq);
    expect(warnings.filter((w) => w.includes('writing its history failed'))).toHaveLength(1);
    store.close();

    const restarted = new RunStore(dir, { onWarning: () => {} });
    expect(restarted.startup.interrupted).toEqual([]);
    expect(restarted.list()[0]).toMatchObject({
      runId: 'r1',
      outcome: 'finished',
      steps: 25,
      maxSteps: 30,
      usage: { prompt: 10, completion: 20 },
      historyIncomplete: now?.historyIncomplete,
      lastSeq: now?.lastSeq,
    });
    expect(restarted.list()[0]?.isInterrupted).toBeUndefined();
  });

  it('tells whoever opens the run, through the snapshot warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-full-'));
    const history = new RunStore(dir, { logIo: fillingDisk(400), onWarning: () => {} });
    write(history, runEvents('r2', 5));
    const manager = new RunManager(
      async () => {
        throw new Error('not used');
      },
      { history },
    );
    expect(manager.snapshot('r2')?.warnings[0]).toMatch(/^This run's history is incomplete: /);
    history.close();
  });

  it('keeps the waiting events and writes them in order when the disk takes them again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-full-'));
    const disk = fillingDisk(500);
    const store = new RunStore(dir, { logIo: disk, onWarning: () => {} });
    const events = runEvents('r3', 10);
    write(store, events.slice(0, -3));
    disk.free(1_000_000); // someone deleted a big file
    write(store, events.slice(-3));
    const log = parseRunLog(readFileSync(join(dir, 'r3.jsonl'), 'utf8'), 'r3', 'r3.jsonl');
    expect(log.warnings).toEqual([]);
    expect(log.events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(store.list()[0]?.historyIncomplete).toBeUndefined();
    store.close();
  });
});

describe('a log that lost data after its run ended', () => {
  function finishedRun() {
    const dir = mkdtempSync(join(tmpdir(), 'wb-lost-'));
    const store = new RunStore(dir, { indexDelayMs: 0, onWarning: () => {} });
    write(store, runEvents('r4', 25));
    store.close();
    return dir;
  }

  it('an emptied log is not shown as a plain "finished 25/30"', () => {
    const dir = finishedRun();
    truncateSync(join(dir, 'r4.jsonl'), 0);
    const summary = new RunStore(dir, { onWarning: () => {} }).list()[0];
    expect(summary).toMatchObject({ runId: 'r4', outcome: 'finished', steps: 25, maxSteps: 30 });
    expect(summary?.historyIncomplete).toMatch(/shrank from \d+ to 0 bytes .* no event is left/);
    expect(summary?.lastSeq).toBe(0);
  });

  it('a cut log keeps the summary it had, and says from where events are missing', () => {
    const dir = finishedRun();
    const path = join(dir, 'r4.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    truncateSync(path, Buffer.byteLength(`${lines.slice(0, 10).join('\n')}\n`));
    const summary = new RunStore(dir, { onWarning: () => {} }).list()[0];
    expect(summary).toMatchObject({ outcome: 'finished', steps: 25, lastSeq: 10 });
    expect(summary?.isInterrupted).toBeUndefined();
    expect(summary?.historyIncomplete).toMatch(/events after #10 are missing/);
  });
});

describe('RunLogWriter on a disk that fills', () => {
  it('retries while the run goes on, at most once a second', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-writer-'));
    const disk = fillingDisk(0);
    let clock = 0;
    const writer = new RunLogWriter(join(dir, 'x.jsonl'), disk, () => clock);
    expect(writer.append('{"seq":1}', 1)).toBe('failed');
    expect(writer.append('{"seq":2}', 2)).toBe('waiting');
    disk.free(1_000);
    clock += 500;
    expect(writer.append('{"seq":3}', 3)).toBe('waiting'); // too soon to try again
    clock += 600;
    expect(writer.append('{"seq":4}', 4)).toBe('recovered');
    expect(writer.close()).toEqual({ isComplete: true, savedSeq: 4 });
    expect(readFileSync(join(dir, 'x.jsonl'), 'utf8')).toBe(
      '{"seq":1}\n{"seq":2}\n{"seq":3}\n{"seq":4}\n',
    );
  });
});
