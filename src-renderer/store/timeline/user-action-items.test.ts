import { describe, expect, it } from 'vitest';
import type { UserCommandRecord } from '@shared/domain/terminal';
import type { MarkerItem, TimelineItem } from './types';
import { withUserActions } from './user-action-items';

const row = (id: number, ts: number, step = 1): MarkerItem => ({
  kind: 'marker',
  id,
  agent: 'manus',
  step,
  stepId: 2,
  ts,
  marker: 'state',
  text: `row ${id}`,
  tone: 'info',
});

const command = (seq: number, ts: number): UserCommandRecord => ({
  type: 'user.command',
  runId: 'r1',
  seq,
  ts,
  command: `echo ${seq}`,
  output: String(seq),
  exitCode: 0,
  durationMs: 3,
  timedOut: false,
  runState: 'paused',
  containerId: 'c1',
});

const shape = (items: readonly TimelineItem[]) =>
  items.map((i) => (i.kind === 'user' ? `user#${i.command.seq}` : `row${i.id}`));

describe('withUserActions', () => {
  it('places each command after the last agent row before it in time, with ids between', () => {
    const items = [row(1, 100), row(5, 200), row(9, 300)];
    const merged = withUserActions(items, [command(1, 250), command(2, 260), command(3, 900)]);
    expect(shape(merged)).toEqual(['row1', 'row5', 'user#1', 'user#2', 'row9', 'user#3']);
    const ids = merged.map((i) => i.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id > 5 && id < 9)).toHaveLength(2);
    // not nested in a step: folding the step does not hide them
    expect(merged.filter((i) => i.kind === 'user').every((i) => i.stepId === 0)).toBe(true);
  });

  it('keeps a command its id when more are typed after it', () => {
    const items = [row(1, 100), row(5, 200)];
    const first = withUserActions(items, [command(1, 300)]);
    const later = withUserActions(items, [command(1, 300), command(2, 400)]);
    expect(later.find((i) => i.kind === 'user')!.id).toBe(first.at(-1)!.id);
  });

  it('returns the same list when nothing was typed', () => {
    const items = [row(1, 100)];
    expect(withUserActions(items, [])).toBe(items);
  });
});
