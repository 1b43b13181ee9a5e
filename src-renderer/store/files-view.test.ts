import type { StepChangeCount } from '@shared/domain/files';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFilesView } from './files-view';

const counts = (steps: number): { steps: StepChangeCount[] } => ({
  steps: Array.from({ length: steps }, (_, i) => ({
    step: i + 1,
    added: 1,
    changed: 0,
    deleted: 0,
  })),
});

/** A fetch that counts its calls and answers when the test says so. */
function fetcher(steps: number) {
  const calls: (() => void)[] = [];
  const host = {
    made: 0,
    fetch: () =>
      new Promise<{ steps: StepChangeCount[] }>((resolve) => {
        host.made++;
        calls.push(() => resolve(counts(steps)));
      }),
    calls,
    async answerAll() {
      while (calls.length > 0) {
        calls.shift()!();
        await Promise.resolve();
        await Promise.resolve();
      }
    },
  };
  return host;
}

describe('step change counts for the step rows', () => {
  beforeEach(() => useFilesView.setState({ changeCounts: {} }));

  it('an ended run is asked once, however many step rows a scroll mounts after the answer', async () => {
    const host = fetcher(10_000);
    const load = useFilesView.getState().loadChangeCounts;
    // a scroll through the run: each frame mounts the next few step rows
    for (let frame = 0; frame < 50; frame++) {
      for (let step = frame * 5 + 1; step <= frame * 5 + 5; step++)
        load('ended', step, true, host.fetch);
      await host.answerAll();
    }
    expect(host.calls).toHaveLength(0);
    const state = useFilesView.getState().changeCounts['ended']!;
    expect(state.byStep.size).toBe(10_000);
    // asked once: the first row's request, answered with every step
    expect(host.made).toBe(1);
  });

  it('a running run asks again for a step its last answer did not cover, and once more when it ends', async () => {
    const host = fetcher(3);
    const load = useFilesView.getState().loadChangeCounts;
    load('live', 1, false, host.fetch);
    await host.answerAll();
    load('live', 1, false, host.fetch); // the same row rendering again: nothing new
    load('live', 2, false, host.fetch);
    await host.answerAll();
    load('live', 3, true, host.fetch);
    await host.answerAll();
    load('live', 3, true, host.fetch);
    await host.answerAll();
    expect(host.made).toBe(3);
  });
});
