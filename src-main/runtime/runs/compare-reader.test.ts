import { describe, expect, it } from 'vitest';
import { digestRun } from '@shared/compare/diff-runs';
import { history, plainStep } from '@shared/compare/testing/history';
import type { RunEvent } from '@shared/events';
import { readForComparison } from './compare-reader';

const asText = (events: RunEvent[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;

describe('readForComparison', () => {
  const events = history('r1', [
    plainStep(1),
    { ...plainStep(2), prompt: 'Go on.', stuck: 'content' },
    { reply: 'done', calls: [{ name: 'bash', args: { c: 1 }, error: 'exit 1' }] },
  ]);

  it('folds to exactly what the whole history folds to, parsing fewer lines', () => {
    const read = readForComparison(asText(events), 'r1');
    expect(read.warnings).toEqual([]);
    expect(digestRun({ events: read.events })).toEqual(digestRun({ events }));
    const kept = new Set(read.events.map((e) => e.seq));
    const skipped = events.filter((e) => !kept.has(e.seq));
    // left out: requests, state changes and the assistant/tool copies in memory
    expect(new Set(skipped.map((e) => e.type))).toEqual(
      new Set(['llm.requested', 'state.changed', 'memory.appended']),
    );
    const roles = skipped.flatMap((e) => (e.type === 'memory.appended' ? [e.message.role] : []));
    expect(new Set(roles)).toEqual(new Set(['assistant', 'tool']));
  });

  it('skips damaged lines and lines of another run, and says so', () => {
    const text =
      asText(events).replace('\n', '\n{"v":1,"runId":"r1","seq\n') + asText(history('other', []));
    const read = readForComparison(text, 'r1');
    expect(read.warnings[0]).toBe('r1.jsonl line 2: not valid JSON; skipped');
    expect(read.warnings.some((w) => w.includes('not an event of this run'))).toBe(true);
    expect(digestRun({ events: read.events })).toEqual(digestRun({ events }));
  });
});
