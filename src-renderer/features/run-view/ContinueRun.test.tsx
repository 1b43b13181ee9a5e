/**
 * "Continue this run" under a finished run: disabled while empty, Enter sends (Shift+Enter
 * does not), the continuation opens, a refusal is shown in place; not offered for a run
 * still going, a flow or an imported run. A continuation's run view names what it
 * continues (a link to it) and offers no "Run again".
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { summarize } from '@shared/run-summary';
import { AppApiError, type RunSummary } from '@shared/ipc';
import type { RunEvent } from '@shared/events';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';

function setup(runs: Record<string, { events: RunEvent[]; extra?: Partial<RunSummary> }>) {
  const api = createMemoryApi();
  for (const [runId, run] of Object.entries(runs)) api.history.set(runId, run.events);
  const summaryOf = (runId: string): RunSummary => {
    const events = api.history.get(runId)!;
    return { ...summarize(events)!, lastSeq: events.at(-1)!.seq, ...runs[runId]?.extra };
  };
  api.override('listRuns', async () => [...api.history.keys()].map(summaryOf));
  api.override('getRun', async ({ runId }) => ({
    summary: summaryOf(runId),
    events: api.history.get(runId)!,
    isLive: false,
    warnings: [],
    hasMore: false,
  }));
  return api;
}

const finishedRun = (runId: string, startTs: number, startExtras: Record<string, unknown> = {}) =>
  history(runId, [1, 2].map(plainStep), { startTs, startExtras });

describe('continue a finished run', () => {
  it('sends the follow-up with Enter, opens the continuation, shows a refusal in place', async () => {
    const api = setup({ 'run-a': { events: finishedRun('run-a', 1_700_000_000_000) } });
    const app = await renderApp(api);
    const open = async (runId: string) => {
      const item = screen
        .getAllByTestId('run-history-item')
        .find((el) => el.getAttribute('data-run-id') === runId)!;
      await act(async () => fireEvent.click(item));
      await flush();
    };
    await open('run-a');
    const box = screen.getByTestId('continue-message');
    const send = screen.getByTestId('continue-submit');
    expect(send).toHaveProperty('disabled', true);
    // Enter on an empty box sends nothing
    await act(async () => fireEvent.keyDown(box, { key: 'Enter' }));
    expect(api.calls.some((c) => c.method === 'continueRun')).toBe(false);

    await act(async () => fireEvent.change(box, { target: { value: ' Now add tests. ' } }));
    expect(send).toHaveProperty('disabled', false);
    // Shift+Enter is a new line, not a send
    await act(async () => fireEvent.keyDown(box, { key: 'Enter', shiftKey: true }));
    expect(api.calls.some((c) => c.method === 'continueRun')).toBe(false);

    api.override('continueRun', async () => {
      throw new AppApiError({
        code: 'conflict',
        message: 'Run run-a cannot be continued: the workspace it worked in (/x) is gone',
      });
    });
    await act(async () => fireEvent.keyDown(box, { key: 'Enter' }));
    await flush();
    expect(screen.getByTestId('continue-error').textContent).toMatch(
      /Could not continue: Run run-a cannot be continued: the workspace it worked in/,
    );
    expect(app.store.getState().selectedRunId).toBe('run-a');

    api.override('continueRun', async () => ({ runId: 'run-9' }));
    await act(async () => fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true }));
    await flush();
    expect(api.calls.filter((c) => c.method === 'continueRun').at(-1)?.input).toEqual({
      runId: 'run-a',
      message: 'Now add tests.',
    });
    expect(app.store.getState().selectedRunId).toBe('run-9');
  });

  it('names what a continuation continues; not offered for a run going on, a flow or an imported run', async () => {
    const api = setup({
      'run-a': { events: finishedRun('run-a', 1_700_000_000_000) },
      'run-b': {
        events: finishedRun('run-b', 1_700_000_100_000, {
          continueOf: { runId: 'run-a', step: 2 },
        }),
      },
      'run-live': {
        events: history('run-live', [1].map(plainStep), { isUnfinished: true }),
      },
      'run-flow': { events: finishedRun('run-flow', 1_700_000_200_000, { flow: 'planning' }) },
      'run-imp': { events: finishedRun('run-imp', 1_700_000_300_000), extra: { isImported: true } },
    });
    const app = await renderApp(api);
    const open = async (runId: string) => {
      const item = screen
        .getAllByTestId('run-history-item')
        .find((el) => el.getAttribute('data-run-id') === runId)!;
      await act(async () => fireEvent.click(item));
      await flush();
    };
    await open('run-b');
    const origin = screen.getByTestId('fork-origin');
    expect(origin.getAttribute('data-kind')).toBe('continue');
    expect(origin.textContent).toMatch(/Continues run run-a after its step 2/);
    expect(screen.queryByTestId('run-again')).toBeNull();
    // the history nests it under run-a with its marker
    const row = screen
      .getAllByTestId('run-history-item')
      .find((el) => el.getAttribute('data-run-id') === 'run-b')!;
    expect(row.getAttribute('data-continue-of')).toBe('run-a');
    expect(row.textContent).toMatch(/↳ continued after step 2:/);
    // a continuation can be continued (a chain)
    expect(screen.getByTestId('continue-panel')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('origin-link')));
    await flush();
    expect(app.store.getState().selectedRunId).toBe('run-a');
    for (const runId of ['run-live', 'run-flow', 'run-imp']) {
      await open(runId);
      expect(screen.queryByTestId('continue-panel'), runId).toBeNull();
    }
  });
});
