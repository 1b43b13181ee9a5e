/**
 * The "files changed" chip on step rows (issue 32): only on a step that added, changed or
 * deleted files, with how many (`runs:change-counts`), and it opens that step's diff. A
 * step whose checkpoint found no change, or that has no checkpoint, has none.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../../../testing/memory-api';
import { flush, renderApp } from '../../../testing/render-app';
import { RunScript } from '../../../testing/run-script';

const chipOf = (step: number) =>
  document
    .querySelector(`[data-testid="timeline-step"][data-step="${step}"]`)
    ?.querySelector('[data-testid="step-files-chip"]') ?? null;

describe('the files-changed chip', () => {
  it('shows the count on steps that changed files only, and opens the step diff', async () => {
    const api = createMemoryApi();
    const script = new RunScript('r1').start('task');
    for (let i = 0; i < 3; i++) {
      script.addStep({
        content: `step ${i + 1}`,
        calls: [{ name: 'bash', args: { command: 'x' } }],
      });
      script.endStep();
    }
    script.finish();
    api.history.set('r1', script.events);
    api.override('getStepChangeCounts', async () => ({
      steps: [
        { step: 1, added: 2, changed: 0, deleted: 0 },
        // step 2's checkpoint found nothing changed; step 3 has no checkpoint
        { step: 2, added: 0, changed: 0, deleted: 0 },
      ],
    }));
    api.override('getRunChanges', async ({ runId, to }) => ({ runId, from: 0, to, files: [] }));
    await renderApp(api);
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    await flush();

    const chip = chipOf(1);
    expect(chip?.textContent).toBe('2 files changed');
    expect(chip?.getAttribute('data-count')).toBe('2');
    expect(chipOf(2)).toBeNull();
    expect(chipOf(3)).toBeNull();
    // one ask for all the rows (again once the run's summary says it ended), not one a row
    expect(api.calls.filter((c) => c.method === 'getStepChangeCounts').length).toBeLessThanOrEqual(
      2,
    );

    await act(async () => fireEvent.click(chip!));
    await flush();
    expect(screen.getByTestId('step-diff').getAttribute('data-step')).toBe('1');
  });
});
