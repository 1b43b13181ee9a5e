import { describe, expect, it } from 'vitest';
import { createEventStamper } from '@shared/events';
import { parseRunLog, parseRunLogPage } from './run-log';

function logText(count: number, runId = 'r1'): { text: string; lines: string[] } {
  const stamper = createEventStamper(runId, () => 1);
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify(
      stamper.stamp({ type: 'step.started', agent: 'a', step: i + 1, maxSteps: count }),
    ),
  );
  return { text: `${lines.join('\n')}\n`, lines };
}

describe('parseRunLogPage', () => {
  it('returns the events after afterSeq, at most limit, and says whether more follow', () => {
    const { text } = logText(10);
    const first = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 0, limit: 4 });
    expect(first.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(first.hasMore).toBe(true);
    const middle = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 4, limit: 4 });
    expect(middle.events.map((e) => e.seq)).toEqual([5, 6, 7, 8]);
    const last = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 8, limit: 4 });
    expect(last.events.map((e) => e.seq)).toEqual([9, 10]);
    expect(last.hasMore).toBe(false);
    const exact = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 6, limit: 4 });
    expect(exact.hasMore).toBe(false);
    expect(parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 10, limit: 4 })).toMatchObject({
      events: [],
      hasMore: false,
    });
  });

  it('pages together give exactly what the whole log gives, lines included', () => {
    const { text } = logText(57);
    const whole = parseRunLog(text, 'r1', 'r1.jsonl');
    const seqs: number[] = [];
    const lines: string[] = [];
    let afterSeq = 0;
    for (;;) {
      const page = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq, limit: 10 });
      seqs.push(...page.events.map((e) => e.seq));
      lines.push(...page.lines);
      if (!page.hasMore) break;
      afterSeq = page.events.at(-1)!.seq;
    }
    expect(seqs).toEqual(whole.events.map((e) => e.seq));
    expect(lines).toEqual(whole.lines);
  });

  it('reports a torn last line on every page and never counts it as more events', () => {
    const { text } = logText(6);
    const torn = `${text}{"v":1,"runId":"r1","seq":7,"ts":1,"type":"step.sta`;
    const first = parseRunLogPage(torn, 'r1', 'r1.jsonl', { afterSeq: 0, limit: 3 });
    expect(first.hasMore).toBe(true);
    expect(first.hasTornTail).toBe(true);
    expect(first.warnings.join()).toMatch(/line 7: the last event was cut off/);
    const last = parseRunLogPage(torn, 'r1', 'r1.jsonl', { afterSeq: 3, limit: 3 });
    expect(last.events.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(last.hasMore).toBe(false);
    expect(last.hasTornTail).toBe(true);
  });

  it('reports damage inside the page with its line number, and gaps', () => {
    const { lines } = logText(6);
    const damaged = [lines[0], lines[1], 'garbage', lines[4], lines[5]].join('\n') + '\n';
    const page = parseRunLogPage(damaged, 'r1', 'r1.jsonl', { afterSeq: 1, limit: 10 });
    expect(page.events.map((e) => e.seq)).toEqual([2, 5, 6]);
    expect(page.warnings).toEqual([
      'r1.jsonl line 3: not valid JSON; skipped',
      'r1.jsonl line 4: events 3..4 are missing',
    ]);
  });
});

describe('paging with startLine', () => {
  it('gives the same page from the previous page end as from a scan of the whole log', () => {
    const { text } = logText(30);
    const first = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 0, limit: 7 });
    const next = parseRunLogPage(text, 'r1', 'r1.jsonl', {
      afterSeq: 7,
      limit: 7,
      startLine: first.nextLine,
    });
    const scanned = parseRunLogPage(text, 'r1', 'r1.jsonl', { afterSeq: 7, limit: 7 });
    expect(next.events).toEqual(scanned.events);
    expect(next.events.map((e) => e.seq)).toEqual([8, 9, 10, 11, 12, 13, 14]);
  });
});
