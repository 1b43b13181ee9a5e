import { describe, expect, it } from 'vitest';
import { ALIGNMENT_COSTS, alignSteps } from './align';
import { diffRuns, rowLabel, swapDiff } from './diff-runs';
import { digestSteps } from './step-digest';
import { history, plainStep, type StepSpec } from './testing/history';
import type { AlignedRow, RunDiff } from './types';

const steps = (n: number, from = 1): StepSpec[] =>
  Array.from({ length: n }, (_, i) => plainStep(from + i));

/** Compact picture of the rows: `=` same, `~` changed, `-` only A, `+` only B, `^` shared. */
function picture(rows: AlignedRow[]): string {
  const mark = { same: '=', changed: '~', 'only-a': '-', 'only-b': '+', shared: '^' } as const;
  return rows.map((r) => mark[r.status]).join('');
}

/** Step numbers of each row, `A:B` (`_` where a side has none). */
function pairs(diff: RunDiff): string[] {
  return diff.rows.map((r) => {
    const a = r.a === null ? '_' : label(diff.stepsA[r.a]!);
    const b = r.b === null ? '_' : label(diff.stepsB[r.b]!);
    return `${a}:${b}`;
  });
}
const label = (s: { kind: string; step: number }) =>
  s.kind === 'start' ? 'S' : s.kind === 'end' ? 'E' : String(s.step);

const diffOf = (a: StepSpec[], b: StepSpec[]) =>
  diffRuns(
    { events: history('run-a', a) },
    { events: history('run-b', b, { startTs: 1_800_000_000_000 }) },
  );

describe('step alignment of two runs', () => {
  it('pairs every step of two identical runs (ids and times differ) and finds no difference', () => {
    const diff = diffOf(steps(10), steps(10));
    expect(picture(diff.rows)).toBe('='.repeat(12));
    expect(diff.isEquivalent).toBe(true);
    expect(diff.firstDifference).toBeNull();
    expect(diff.differences).toBe(0);
  });

  it('marks one inserted step and keeps every later step paired with its twin', () => {
    const b = [...steps(4), plainStep(99), ...steps(6, 5)];
    const diff = diffOf(steps(10), b);
    expect(picture(diff.rows)).toBe('=====+=======');
    // A's step 5 pairs with B's step 6 (the same work, one step later)
    expect(pairs(diff).slice(5, 8)).toEqual(['_:5', '5:6', '6:7']);
    expect(diff.differences).toBe(1);
    expect(rowLabel(diff, diff.rows[diff.firstDifference!]!)).toBe('only in B: step 5');
  });

  it('marks one skipped step without shifting the steps after it', () => {
    const b = [...steps(4), ...steps(5, 6)];
    const diff = diffOf(steps(10), b);
    expect(picture(diff.rows)).toBe('=====-======');
    expect(pairs(diff)[5]).toBe('5:_');
    expect(pairs(diff)[6]).toBe('6:5');
    expect(diff.differences).toBe(1);
  });

  it('pairs a step whose tool argument changed, naming the argument field', () => {
    const b = steps(8);
    b[5] = { ...b[5]!, calls: [{ ...b[5]!.calls![0]!, args: { command: 'ls -la module_6' } }] };
    const diff = diffOf(steps(8), b);
    expect(picture(diff.rows)).toBe('======~===');
    const row = diff.rows[diff.firstDifference!]!;
    expect(row.fields).toEqual(['call 1 args']);
    expect(rowLabel(diff, row)).toBe('step 6');
  });

  it('starts the difference at step 3 when the model replied differently there', () => {
    const b = steps(6);
    b[2] = { ...b[2]!, reply: 'Step 3: another model would rather read the README first.' };
    const diff = diffOf(steps(6), b);
    expect(picture(diff.rows)).toBe('===~====');
    expect(diff.rows[diff.firstDifference!]!.fields).toEqual(['reply']);
    expect(rowLabel(diff, diff.rows[diff.firstDifference!]!)).toBe('step 3');
  });

  it('keeps pairing by position when everything after step 3 differs (no step is repeated)', () => {
    const b = steps(3).concat(
      Array.from({ length: 7 }, (_, i) => ({
        reply: `Other path ${i}`,
        calls: [{ name: 'bash', args: { command: `cat x${i}` }, output: `y${i}` }],
      })),
    );
    const diff = diffOf(steps(10), b);
    expect(picture(diff.rows)).toBe('====~~~~~~~=');
    expect(pairs(diff)[4]).toBe('4:4');
  });

  it('pairs a step that called another tool instead of splitting it into two gaps', () => {
    const b = steps(5);
    b[2] = { reply: 'Step 3', calls: [{ name: 'python_execute', args: { code: 'print(1)' } }] };
    const diff = diffOf(steps(5), b);
    expect(picture(diff.rows)).toBe('===~===');
    expect(diff.rows[3]!.fields).toEqual(expect.arrayContaining(['call 1 tool', 'call 1 args']));
  });

  it('keeps twins paired when every step changed and one was inserted (no identical step to anchor on)', () => {
    // another model: every reply is reworded, the tool work is the same, and B adds a step
    const reworded = (n: number): StepSpec => ({
      ...plainStep(n),
      reply: `Now step ${n}, reworded.`,
    });
    const b = [1, 2, 3, 4].map(reworded).concat([plainStep(99)], [5, 6, 7, 8, 9, 10].map(reworded));
    const diff = diffOf(steps(10), b);
    expect(picture(diff.rows)).toBe('=~~~~+~~~~~~=');
    expect(pairs(diff).slice(4, 7)).toEqual(['4:4', '_:5', '5:6']);
    expect(
      diff.rows.filter((r) => r.status === 'changed').every((r) => r.fields?.join() === 'reply'),
    ).toBe(true);
  });

  it('places one inserted step right among identical repeated steps (no unique anchors)', () => {
    const same: StepSpec = { reply: 'again', calls: [{ name: 'bash', args: { command: 'make' } }] };
    const a = Array.from({ length: 30 }, () => same);
    const b = [...a.slice(0, 12), plainStep(1), ...a.slice(12)];
    const diff = diffOf(a, b);
    expect(diff.differences).toBe(1);
    expect(diff.rows.filter((r) => r.status === 'only-b')).toHaveLength(1);
  });

  it('reports a different outcome as a changed last row', () => {
    const diff = diffRuns(
      { events: history('a', steps(3)) },
      { events: history('b', steps(3), { outcome: 'max_steps' }) },
    );
    expect(picture(diff.rows)).toBe('====~');
    expect(diff.rows.at(-1)!.fields).toEqual(['outcome']);
    expect(diff.isEquivalent).toBe(false);
  });

  it('shares a fork’s prefix with its parent up to the fork step', () => {
    const parent = history('parent', steps(5));
    // the fork continues from step 2: its history holds steps 3.. only
    const tail = steps(3, 3);
    tail[1] = { ...tail[1]!, reply: 'A different idea at step 4' };
    const fork = history('fork', tail, {
      firstStep: 3,
      startExtras: { forkOf: { runId: 'parent', step: 2 } },
    });
    const diff = diffRuns({ events: parent }, { events: fork });
    expect(diff.sharedPrefix).toBe(2);
    expect(picture(diff.rows)).toBe('=^^=~==');
    expect(diff.rows[diff.firstDifference!]).toMatchObject({ status: 'changed' });
    expect(rowLabel(diff, diff.rows[diff.firstDifference!]!)).toBe('step 4');
    // the same pair, the fork first: the prefix is still shared, the sides swapped
    const swapped = diffRuns({ events: fork }, { events: parent });
    expect(picture(swapped.rows)).toBe('=^^=~==');
    expect(swapped.rows[1]).toMatchObject({ status: 'shared', a: null, b: 1 });
  });

  it('seen from the other side (swapped) is the alignment of B against A', () => {
    const b = [...steps(4), plainStep(99), ...steps(5, 6)];
    const ab = diffOf(steps(10), b);
    const ba = diffRuns(
      { events: history('run-b', b, { startTs: 1_800_000_000_000 }) },
      { events: history('run-a', steps(10)) },
    );
    const swapped = swapDiff(ab);
    expect(picture(swapped.rows)).toBe(picture(ba.rows));
    expect(pairs(swapped)).toEqual(pairs(ba));
    expect(swapped.a.runId).toBe('run-b');
  });

  it('aligns in a band like the exact programme when the band is wide enough', () => {
    // no unique anchors (every step appears twice in each run) and many edits
    const base: StepSpec[] = Array.from({ length: 60 }, (_, i) => plainStep(i % 30));
    const edited = base.flatMap((s, i) =>
      i % 9 === 0 ? [] : i % 7 === 0 ? [s, plainStep(1000 + i)] : [s],
    );
    const a = digestSteps(history('a', base));
    const b = digestSteps(history('b', edited));
    const exact = alignSteps(a, b);
    const banded = alignSteps(a, b, { cellBudget: 64 * 30 });
    expect(picture(banded)).toBe(picture(exact));
  });

  it('documents its cost model: a changed pair is cheaper than two gaps, a gap than a shift', () => {
    const { changedBase, changedSpan, otherSignature, gap } = ALIGNMENT_COSTS;
    expect(changedBase + changedSpan).toBeLessThan(2 * gap);
    expect(otherSignature).toBeLessThan(2 * gap);
    expect(otherSignature).toBeGreaterThan(gap);
  });
});
