/**
 * Reading a page from the file gives what parsing the whole text gives (parseRunLogPage),
 * on logs with damage of every kind the reader reports, cut into chunks smaller than
 * their lines; pages chained with cursors give the whole log; and the first page of a
 * long log reads a bounded part of the file, not all of it.
 */
import * as fs from 'node:fs';
import { mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventStamper } from '@shared/events';
import { parseRunLog, parseRunLogPage, type ParsedPage } from './run-log';
import { readLogPage, type LogCursor } from './log-file-pager';

vi.mock('node:fs', async (importOriginal) => {
  // the real module, with readSync observable: the test counts the bytes a page reads
  const real = await importOriginal<typeof fs>();
  return { ...real, readSync: vi.fn(real.readSync) };
});

afterEach(() => vi.mocked(fs.readSync).mockClear());

/** a small seeded generator, so a failure names a reproducible case */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function damagedLog(rand: () => number): string {
  const stamper = createEventStamper('r1', () => 1);
  const other = createEventStamper('r2', () => 1);
  const lines: string[] = [];
  const count = 1 + Math.floor(rand() * 40);
  for (let i = 0; i < count; i++) {
    const event = stamper.stamp({
      type: 'step.started',
      agent: 'a'.repeat(Math.floor(rand() * 90)),
      step: i + 1,
      maxSteps: count,
    });
    const r = rand();
    if (r < 0.05) lines.push('');
    else if (r < 0.09) lines.push('{not json');
    else if (r < 0.12) lines.push(JSON.stringify({ hello: 'world' }));
    else if (r < 0.15) lines.push(JSON.stringify(other.stamp({ type: 'run.cancelled' } as never)));
    else if (r < 0.18) lines.push(JSON.stringify({ ...event, seq: Math.max(1, event.seq - 3) }));
    else if (r < 0.21)
      continue; // a gap: this seq is missing
    else if (r < 0.24) lines.push(JSON.stringify({ runTitle: 'a title' }));
    if (r >= 0.21 || r < 0.18) lines.push(JSON.stringify(event));
    if (rand() < 0.05)
      lines.push(`  {"v":1,"runId":"r1","seq":${event.seq + 100},"ts":1,"type":"x"}`);
  }
  let text = lines.join('\n');
  const end = rand();
  if (end < 0.3) text += '\n';
  else if (end < 0.5) text += `\n{"v":1,"runId":"r1","seq":${count + 1},"ts":1,"type":"step.sta`;
  else if (end < 0.6) text += '\n{"v":1,"runId":"r1","t';
  else if (end < 0.7) text += '\n\n';
  return text;
}

function fileWith(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'wb-pager-')), 'r1.jsonl');
  writeFileSync(path, text);
  return path;
}

/**
 * The page as parseRunLogPage gives it; `nextLine` is each reader's own place to go on
 * from (the file reader counts a final empty line as not yet written), not compared.
 */
function sameAs(page: ParsedPage): Omit<ParsedPage, 'nextLine'> & { nextLine: unknown } {
  return { ...page, nextLine: expect.any(Number) };
}

describe('readLogPage', () => {
  it('equals parseRunLogPage of the whole text on damaged logs, any chunk size', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = random(seed);
      const text = damagedLog(rand);
      const path = fileWith(text);
      const chunk = 1 + Math.floor(rand() * 300);
      for (let k = 0; k < 4; k++) {
        const window = { afterSeq: Math.floor(rand() * 45), limit: 1 + Math.floor(rand() * 12) };
        const expected = parseRunLogPage(text, 'r1', 'r1.jsonl', window);
        const got = readLogPage(path, 'r1', 'r1.jsonl', window, undefined, chunk)?.page;
        expect(got, `seed ${seed}, window ${JSON.stringify(window)}, chunk ${chunk}`).toEqual(
          sameAs(expected),
        );
      }
    }
  });

  it('pages chained by their cursors give the whole log, the same as chained by line', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = random(seed * 7919);
      const text = damagedLog(rand);
      const path = fileWith(text);
      const limit = 1 + Math.floor(rand() * 6);
      const chunk = 1 + Math.floor(rand() * 200);
      let afterSeq = 0;
      let cursor: LogCursor | undefined;
      let startLine: number | undefined;
      const events: number[] = [];
      for (let guard = 0; guard < 100; guard++) {
        const window = { afterSeq, limit };
        const read = readLogPage(path, 'r1', 'r1.jsonl', window, cursor, chunk)!;
        const expected = parseRunLogPage(text, 'r1', 'r1.jsonl', {
          ...window,
          ...(startLine !== undefined ? { startLine } : {}),
        });
        expect(read.page, `seed ${seed} page ${guard}`).toEqual(sameAs(expected));
        events.push(...read.page.events.map((e) => e.seq));
        const last = read.page.events.at(-1);
        if (!read.page.hasMore || !last) break;
        afterSeq = last.seq;
        cursor = read.cursor;
        startLine = read.page.nextLine;
      }
      const whole = parseRunLog(text, 'r1', 'r1.jsonl').events.map((e) => e.seq);
      expect(whole.slice(0, events.length)).toEqual(events);
    }
  });

  it('a cursor follows a log that grows, and is dropped for a file written anew', () => {
    const stamper = createEventStamper('r1', () => 1);
    const line = (step: number) =>
      `${JSON.stringify(stamper.stamp({ type: 'step.started', agent: 'a', step, maxSteps: 9 }))}\n`;
    const path = fileWith(line(1) + line(2));
    const first = readLogPage(path, 'r1', 'r1.jsonl', { afterSeq: 0, limit: 5 })!;
    expect(first.page.events.map((e) => e.seq)).toEqual([1, 2]);
    appendFileSync(path, line(3));
    appendFileSync(path, '{damaged\n');
    const next = readLogPage(path, 'r1', 'r1.jsonl', { afterSeq: 2, limit: 5 }, first.cursor)!;
    expect(next.page.events.map((e) => e.seq)).toEqual([3]);
    // the lines after the cursor are numbered as in the whole file
    expect(next.page.warnings).toEqual(['r1.jsonl line 4: not valid JSON; skipped']);
    // the same path written anew (another inode): the cursor is not used
    const again = createEventStamper('r1', () => 1);
    const rewritten = [1, 2, 3, 4].map(
      (step) =>
        `${JSON.stringify(again.stamp({ type: 'step.started', agent: 'b', step, maxSteps: 9 }))}\n`,
    );
    const fresh = `${path}.new`;
    writeFileSync(fresh, rewritten.join(''));
    fs.renameSync(fresh, path);
    const after = readLogPage(path, 'r1', 'r1.jsonl', { afterSeq: 2, limit: 5 }, next.cursor)!;
    expect(after.page.events.map((e) => e.seq)).toEqual([3, 4]);
  });

  it('reads a bounded part of a long log for its first page', () => {
    const stamper = createEventStamper('r1', () => 1);
    const lines: string[] = [];
    for (let i = 1; i <= 40_000; i++) {
      lines.push(
        JSON.stringify(
          stamper.stamp({ type: 'step.started', agent: 'toolcall', step: i, maxSteps: 40_000 }),
        ),
      );
    }
    const text = `${lines.join('\n')}\n`;
    const path = fileWith(text);
    vi.mocked(fs.readSync).mockClear();
    const first = readLogPage(path, 'r1', 'r1.jsonl', { afterSeq: 0, limit: 1_000 })!;
    expect(first.page.events).toHaveLength(1_000);
    expect(first.page.hasMore).toBe(true);
    const bytesRead = vi
      .mocked(fs.readSync)
      .mock.results.reduce((sum, r) => sum + (r.value as number), 0);
    // one 1 MiB chunk and the last byte, against a file of several MB
    expect(text.length).toBeGreaterThan(4 * (1 << 20));
    expect(bytesRead).toBeLessThanOrEqual((1 << 20) + 1);
  });

  it('answers undefined for a file that is not there', () => {
    expect(readLogPage('/nonexistent/r1.jsonl', 'r1', 'r1.jsonl', { afterSeq: 0, limit: 1 })).toBe(
      undefined,
    );
  });
});
