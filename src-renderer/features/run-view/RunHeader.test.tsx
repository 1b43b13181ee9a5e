/**
 * The run header's time-travel buttons: "Resume" on an interrupted run continues it in a
 * new run (selected); "Run again" starts the same task from step 0, recorded as a re-run.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { summarize } from '@shared/run-summary';
import type { RunEvent } from '@shared/events';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';

describe('run header: Resume and Run again', () => {
  it('resumes an interrupted run and runs a finished one again', async () => {
    const api = createMemoryApi();
    // run-a was interrupted: its history stops before run.finished.
    const cut = history('run-a', [1, 2].map(plainStep), { startTs: 1_700_000_000_000 });
    api.history.set(
      'run-a',
      cut.slice(
        0,
        cut.findIndex((e) => e.type === 'run.finished'),
      ),
    );
    api.history.set('run-b', history('run-b', [1].map(plainStep), { startTs: 1_700_000_100_000 }));
    const summaryOf = (events: RunEvent[]) => {
      const summary = { ...summarize(events)!, lastSeq: events.at(-1)!.seq };
      return summary.runId === 'run-a' ? { ...summary, isInterrupted: true } : summary;
    };
    api.override('listRuns', async () => [...api.history.values()].map(summaryOf));
    api.override('getRun', async ({ runId }) => {
      const events = api.history.get(runId)!;
      return { summary: summaryOf(events), events, isLive: false, warnings: [], hasMore: false };
    });
    const app = await renderApp(api);
    const open = async (runId: string) => {
      const item = screen
        .getAllByTestId('run-history-item')
        .find((el) => el.getAttribute('data-run-id') === runId)!;
      await act(async () => fireEvent.click(item));
      await flush();
    };

    await open('run-a');
    await act(async () => fireEvent.click(screen.getByTestId('run-resume')));
    await flush();
    expect(api.calls.find((c) => c.method === 'resumeInterruptedRun')?.input).toEqual({
      runId: 'run-a',
    });
    expect(app.store.getState().selectedRunId).toBe('run-1');

    await open('run-b');
    expect(screen.queryByTestId('run-resume')).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId('run-again')));
    await flush();
    expect(api.calls.find((c) => c.method === 'startRun')?.input).toMatchObject({
      task: 'Fix the failing test',
      agent: 'manus',
      rerunOf: 'run-b',
      // the settings run-b recorded, not today's (issue 25 item 10)
      rerunSettings: 'recorded',
      sessionId: expect.stringMatching(/^rerun-/),
    });
    // today's settings only when asked for, by a button that says so
    await open('run-b');
    const today = screen.getByTestId('run-again-today');
    expect(today.textContent).toBe('Run again with today’s settings');
    await act(async () => fireEvent.click(today));
    await flush();
    expect(api.calls.filter((c) => c.method === 'startRun').at(-1)?.input).toMatchObject({
      rerunOf: 'run-b',
      rerunSettings: 'current',
    });
  });

  it('says why a run cannot run again with its recorded settings', async () => {
    const api = createMemoryApi();
    api.history.set('run-b', history('run-b', [1].map(plainStep), { startTs: 1_700_000_100_000 }));
    const summary = { ...summarize(api.history.get('run-b')!)!, lastSeq: 1 };
    api.override('listRuns', async () => [summary]);
    api.override('startRun', async () => {
      throw new Error(
        'The run cannot start with its recorded settings: Run run-b was recorded before runs kept their settings',
      );
    });
    await renderApp(api);
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    await flush();
    await act(async () => fireEvent.click(screen.getByTestId('run-again')));
    await flush();
    expect(screen.getByTestId('run-again-error').textContent).toContain(
      'recorded before runs kept their settings',
    );
  });

  it('an imported run is never resumed, and runs again in a fresh session, not in the folder it names', async () => {
    const api = createMemoryApi();
    const cut = history('run-i', [1, 2].map(plainStep), { startTs: 1_700_000_000_000 });
    const started = cut[0]!;
    if (started.type !== 'run.started') throw new Error('no run.started');
    // an interrupted export whose history names the host's "/" as its mounted workspace
    const events: RunEvent[] = [
      { ...started, workspace: { path: '/', mode: 'mount' } },
      ...cut.slice(
        1,
        cut.findIndex((e) => e.type === 'run.finished'),
      ),
    ];
    api.history.set('run-i', events);
    const summary = {
      ...summarize(events)!,
      lastSeq: events.at(-1)!.seq,
      isInterrupted: true,
      isImported: true,
    };
    api.override('listRuns', async () => [summary]);
    api.override('getRun', async () => ({
      summary,
      events,
      isLive: false,
      warnings: [],
      hasMore: false,
    }));
    await renderApp(api);
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    await flush();
    expect(screen.queryByTestId('run-resume')).toBeNull();
    expect(screen.getByTestId('run-workspace').textContent).toMatch(/never uses it here/);
    await act(async () => fireEvent.click(screen.getByTestId('run-again')));
    await flush();
    const input = api.calls.find((c) => c.method === 'startRun')?.input as Record<string, unknown>;
    expect(input).toMatchObject({ rerunOf: 'run-i', sessionId: expect.stringMatching(/^rerun-/) });
    expect(input.workspace).toBeUndefined();
  });

  it('offers no Run again, Resume or Continue for an agent the workbench only recorded', async () => {
    const api = createMemoryApi();
    // a gateway run: "external: NAME", no step limit of ours
    const events = history('run-g', [1, 2, 3].map(plainStep), {
      agent: 'external: crew',
      startExtras: { maxSteps: 0 },
    });
    api.history.set('run-g', events);
    const summary = { ...summarize(events)!, lastSeq: events.at(-1)!.seq };
    api.override('listRuns', async () => [summary]);
    await renderApp(api);
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    await flush();
    expect(screen.getByTestId('step-counter').textContent).toBe('3');
    expect(screen.queryByTestId('run-again')).toBeNull();
    expect(screen.queryByTestId('run-again-today')).toBeNull();
    expect(screen.queryByTestId('continue-panel')).toBeNull();
  });
});
