import {
  appendFileSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import { RunStore } from './run-store';

function runEvents(runId: string, finished = true, extraSteps = 1): RunEvent[] {
  const s = createEventStamper(runId, () => 1_700_000_000_000);
  const payloads: RunEventPayload[] = [
    { type: 'run.started', agent: 'manus', task: 't', maxSteps: 5, model: 'm', sessionId: 's1' },
    { type: 'state.changed', agent: 'manus', from: 'IDLE', to: 'RUNNING' },
  ];
  for (let step = 1; step <= extraSteps; step++) {
    payloads.push({ type: 'step.started', agent: 'manus', step, maxSteps: 5 });
  }
  if (finished) {
    payloads.push({
      type: 'run.finished',
      outcome: 'finished',
      state: 'FINISHED',
      steps: extraSteps,
      usage: { prompt: 1, completion: 2 },
    });
  }
  return payloads.map((p) => s.stamp(p));
}

function write(store: RunStore, events: RunEvent[]) {
  for (const e of events) store.append(e, JSON.stringify(e));
}

const quiet = { onWarning: () => {} };

describe('RunStore', () => {
  it('appends each event as one line, exactly as given, and lists the run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const store = new RunStore(dir, quiet);
    const events = runEvents('r1');
    write(store, events);
    const text = readFileSync(join(dir, 'r1.jsonl'), 'utf8');
    expect(text).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    expect(store.list()).toMatchObject([
      { runId: 'r1', outcome: 'finished', steps: 1, sessionId: 's1', lastSeq: 4 },
    ]);
    expect(statSync(join(dir, 'r1.jsonl')).mode & 0o777).toBe(0o600);
    // the owner marker is gone once the run finished
    expect(readdirSync(dir).filter((f) => f.endsWith('.owner'))).toEqual([]);
    store.close();
  });

  it('rebuilds a missing or damaged index from the logs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const first = new RunStore(dir, quiet);
    write(first, runEvents('r1'));
    write(first, runEvents('r2', true, 3));
    first.close();
    for (const damage of ['{"version":2,"runs":[{"nope":1}]}', 'garbage{', '']) {
      writeFileSync(join(dir, 'index.json'), damage);
      const warnings: string[] = [];
      const store = new RunStore(dir, { onWarning: (w) => warnings.push(w) });
      expect(store.startup.isIndexRebuilt).toBe(true);
      expect(
        store
          .list()
          .map((s) => [s.runId, s.steps])
          .sort(),
      ).toEqual([
        ['r1', 1],
        ['r2', 3],
      ]);
      expect(warnings.join('\n')).toMatch(/index .* damaged/);
      store.close();
    }
  });

  it('rebuilds, without a warning, an index an older version wrote (its summaries lack health)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const first = new RunStore(dir, quiet);
    write(first, runEvents('r1'));
    first.close();
    const old = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
      runs: { summary: { health?: unknown } }[];
    };
    for (const entry of old.runs) delete entry.summary.health;
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ version: 1, runs: old.runs }));
    const warnings: string[] = [];
    const store = new RunStore(dir, { onWarning: (w) => warnings.push(w) });
    expect(store.startup.isIndexRebuilt).toBe(true);
    expect(store.list()[0]?.health).toBeDefined();
    expect(warnings).toEqual([]);
    store.close();
  });

  it('shows a run that stopped without run.finished as interrupted, and skips a torn last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const events = runEvents('r1', false, 2);
    writeFileSync(join(dir, 'r1.jsonl'), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    // the process died halfway through the next line
    appendFileSync(join(dir, 'r1.jsonl'), '{"v":1,"runId":"r1","seq":5,"ts":1,"type":"step.st');
    const warnings: string[] = [];
    const store = new RunStore(dir, { onWarning: (w) => warnings.push(w) });
    expect(store.startup.interrupted).toEqual(['r1']);
    expect(store.summary('r1')).toMatchObject({ isInterrupted: true, steps: 2, lastSeq: 4 });
    const log = store.read('r1');
    expect(log?.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(log?.hasTornTail).toBe(true);
    expect(log?.warnings.join()).toMatch(/line 5: the last event was cut off/);
    expect(warnings.join()).toMatch(/cut off/);
    store.close();
  });

  it('does not call a run interrupted while another live process writes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const events = runEvents('r1', false);
    writeFileSync(join(dir, 'r1.jsonl'), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    // the parent of this test process is alive and is not us
    writeFileSync(join(dir, 'r1.owner'), JSON.stringify({ pid: process.ppid }));
    const store = new RunStore(dir, quiet);
    expect(store.summary('r1')?.isInterrupted).toBeUndefined();
    store.close();
  });

  it('skips damaged middle lines with their line numbers and keeps the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const events = runEvents('r1');
    const lines = events.map((e) => JSON.stringify(e));
    lines.splice(2, 0, 'not json', '{"v":1,"runId":"other","seq":3,"ts":1,"type":"step.started"}');
    writeFileSync(join(dir, 'r1.jsonl'), `${lines.join('\n')}\n`);
    const store = new RunStore(dir, quiet);
    const log = store.read('r1');
    expect(log?.events).toEqual(events);
    expect(log?.warnings).toEqual([
      'r1.jsonl line 3: not valid JSON; skipped',
      'r1.jsonl line 4: belongs to run other, not r1; skipped',
    ]);
    store.close();
  });

  it('picks up runs written by another process since it opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const store = new RunStore(dir, quiet);
    expect(store.list()).toEqual([]);
    const other = new RunStore(dir, quiet);
    write(other, runEvents('r9'));
    other.close();
    expect(store.list().map((s) => s.runId)).toEqual(['r9']);
    store.close();
  });

  it('marks an imported run beside its log: the mark outlives a lost index and goes with the run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const store = new RunStore(dir, quiet);
    write(store, runEvents('local', false));
    const events = runEvents('imp');
    const text = events.map((e) => `${JSON.stringify(e)}\n`).join('');
    store.addLog('imp', text, { ...store.list()[0]!, runId: 'imp' });
    expect(store.summary('imp')?.isImported).toBe(true);
    expect(store.summary('local')?.isImported).toBeUndefined();
    store.close();
    // the index is a cache: without it, the mark still says where the run came from
    rmSync(join(dir, 'index.json'), { force: true });
    const reopened = new RunStore(dir, quiet);
    expect(reopened.summary('imp')?.isImported).toBe(true);
    expect(reopened.list().find((s) => s.runId === 'local')?.isImported).toBeUndefined();
    expect(reopened.remove('imp')).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith('imp'))).toEqual([]);
    reopened.close();
  });

  it('refuses run ids that are not safe file names', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-runs-')), quiet);
    expect(store.read('../etc/passwd')).toBeUndefined();
    expect(store.summary('../x')).toBeUndefined();
    expect(() => store.logPath('a/b')).toThrow(/Invalid run id/);
    store.close();
  });
});

describe('RunStore on a disk that refuses writes', () => {
  it('keeps the run going and says so once, not once per event', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const warnings: string[] = [];
    const store = new RunStore(dir, { onWarning: (w) => warnings.push(w) });
    // a folder where the log file should be: opening it for append fails
    mkdirSync(join(dir, 'r1.jsonl'));
    expect(() => write(store, runEvents('r1', true, 5))).not.toThrow();
    expect(warnings.filter((w) => w.includes('r1'))).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot be written/);
    store.close();
  });
});

describe('RunStore: a step written in one go (issue 27)', () => {
  /** the real disk, counting the writes */
  function countingIo() {
    const writes: string[] = [];
    return {
      writes,
      io: {
        write: (fd: number, data: Buffer) => {
          writes.push(data.toString());
          return writeSync(fd, data);
        },
        truncate: (fd: number, size: number) => ftruncateSync(fd, size),
      },
    };
  }

  function stepEvents(runId: string): RunEvent[] {
    const s = createEventStamper(runId, () => 1_700_000_000_000);
    const payloads: RunEventPayload[] = [
      { type: 'run.started', agent: 'manus', task: 't', maxSteps: 5, model: 'm', sessionId: 's1' },
      { type: 'state.changed', agent: 'manus', from: 'IDLE', to: 'RUNNING' },
      { type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 },
      { type: 'state.changed', agent: 'manus', from: 'RUNNING', to: 'RUNNING' },
      { type: 'step.finished', agent: 'manus', step: 1, durationMs: 5 },
    ];
    return payloads.map((p) => s.stamp(p));
  }

  it("writes a step's events with its end, in one write", () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-batch-'));
    const { writes, io } = countingIo();
    const store = new RunStore(dir, { ...quiet, logIo: io });
    const events = stepEvents('b1');
    write(store, events);
    // run.started alone (the index follows it), then the step's three events together
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([1, 4]);
    expect(readFileSync(join(dir, 'b1.jsonl'), 'utf8')).toBe(
      events.map((e) => `${JSON.stringify(e)}\n`).join(''),
    );
    store.close();
  });

  it('a read sees the queued events, and the next turn writes them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-batch-'));
    const store = new RunStore(dir, quiet);
    const events = stepEvents('b2').slice(0, 3);
    write(store, events);
    expect(store.read('b2')?.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    const more = stepEvents('b2').slice(3, 4);
    write(store, more);
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(join(dir, 'b2.jsonl'), 'utf8').split('\n')).toHaveLength(5);
    store.close();
  });
});
