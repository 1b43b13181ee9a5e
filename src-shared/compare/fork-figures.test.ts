import { describe, expect, it } from 'vitest';
import { diffRuns, swapDiff } from './diff-runs';
import { history, plainStep, type StepSpec } from './testing/history';

const steps = (n: number, from = 1): StepSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    ...plainStep(from + i),
    tokens: { prompt: 100, completion: 10 },
  }));

/** A parent of 5 steps (110 tokens each) and its fork at step 2 that runs steps 3-5 again. */
function forkPair(forkTail: StepSpec[] = steps(3, 3)) {
  const parent = history('parent', steps(5));
  const fork = history('fork', forkTail, {
    firstStep: 3,
    startTs: 1_700_000_100_000,
    startExtras: { forkOf: { runId: 'parent', step: 2 } },
  });
  return { parent, fork };
}

describe('a fork against its parent', () => {
  it('compares what each run did after the fork step, not the fork against the whole parent', () => {
    const { parent, fork } = forkPair();
    const diff = diffRuns({ events: parent }, { events: fork });
    // the whole runs differ by the two shared steps the fork never ran (the "−883")
    expect(diff.b.tokens.prompt + diff.b.tokens.completion).toBe(330);
    expect(diff.a.tokens.prompt + diff.a.tokens.completion).toBe(550);
    expect(diff.fork).toMatchObject({
      step: 2,
      parent: 'a',
      a: { steps: 3, tokens: { prompt: 300, completion: 30 }, toolCalls: 3, toolErrors: 0 },
      b: { steps: 3, tokens: { prompt: 300, completion: 30 }, toolCalls: 3, toolErrors: 0 },
      shared: { steps: 2, tokens: { prompt: 200, completion: 20 }, toolCalls: 2 },
    });
    // the same steps after the fork: the same cost (both priced the same way)
    expect(diff.fork!.a.costUsd).toBe(diff.fork!.b.costUsd);
  });

  it('counts what the fork did differently after the fork step', () => {
    const tail = steps(2, 3);
    tail[1] = { ...tail[1]!, tokens: { prompt: 500, completion: 50 }, calls: [] };
    const { parent, fork } = forkPair(tail);
    const diff = diffRuns({ events: parent }, { events: fork });
    expect(diff.fork!.a).toMatchObject({ steps: 3, toolCalls: 3 });
    expect(diff.fork!.b).toMatchObject({
      steps: 2,
      tokens: { prompt: 600, completion: 60 },
      toolCalls: 1,
    });
  });

  it('measures the parent after the fork step, whichever side it is on', () => {
    const { parent, fork } = forkPair();
    const forkFirst = diffRuns({ events: fork }, { events: parent });
    expect(forkFirst.fork).toMatchObject({ parent: 'b', b: { steps: 3 }, shared: { steps: 2 } });
    // swapping sides swaps the figures and who the parent is
    const swapped = swapDiff(diffRuns({ events: parent }, { events: fork }));
    expect(swapped.fork).toEqual(forkFirst.fork);
  });

  it('splits the parent’s wall time at the fork step', () => {
    const { parent, fork } = forkPair();
    const diff = diffRuns({ events: parent }, { events: fork });
    const { a, shared } = diff.fork!;
    expect(a.wallMs).toBeGreaterThan(0);
    expect(shared.wallMs).toBeGreaterThan(0);
    // the two parts cover the parent's run
    expect(a.wallMs + shared.wallMs).toBe(diff.a.wallMs);
  });

  it('leaves runs that are not a fork and its parent alone', () => {
    const diff = diffRuns(
      { events: history('x', steps(3)) },
      { events: history('y', steps(3), { startTs: 1_800_000_000_000 }) },
    );
    expect(diff.fork).toBeUndefined();
  });
});
