/**
 * "Fork from here" in the inspector: on a finished step of a finished run it says which
 * processes the fork will not get back (from the step's checkpoint), and forks with the
 * added message and the chosen profile; the new run is selected.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { configView } from '../../testing/config-fixture';

describe('Fork from here', () => {
  it('shows the processes not restored, and forks with the message and profile', async () => {
    const config = configView();
    const api = createMemoryApi({ config: { ...config, profiles: ['fast'] } });
    api.history.set('run-a', history('run-a', [1, 2, 3].map(plainStep)));
    api.override('listCheckpoints', async () => [
      { agent: 'manus', step: 2, bytes: 10, files: 4, processes: ['python -m http.server'] },
    ]);
    const app = await renderApp(api);
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    await flush();
    const step2 = document.querySelector('[data-testid="timeline-step"][data-step="2"]')!;
    await act(async () => fireEvent.click(step2));
    await flush();

    expect(screen.getByTestId('fork-panel').textContent).toContain('4 files');
    expect(screen.getByTestId('fork-processes').textContent).toContain('python -m http.server');
    fireEvent.change(screen.getByTestId('fork-message'), { target: { value: 'Try again' } });
    fireEvent.change(screen.getByTestId('fork-model'), { target: { value: 'fast' } });
    await act(async () => fireEvent.click(screen.getByTestId('fork-submit')));
    await flush();
    expect(api.calls.find((c) => c.method === 'forkRun')?.input).toEqual({
      runId: 'run-a',
      step: 2,
      message: 'Try again',
      agentModel: 'fast',
    });
    expect(app.store.getState().selectedRunId).toBe('run-1');
  });

  it('a step without a snapshot says so, and forks into an empty workspace only when asked', async () => {
    const api = createMemoryApi();
    api.history.set('run-a', history('run-a', [1, 2].map(plainStep)));
    api.override('listCheckpoints', async () => [
      { agent: 'manus', step: 2, bytes: 10, files: 4, processes: [] },
    ]);
    await renderApp(api);
    const open = async (step: number) => {
      const item = screen
        .getAllByTestId('run-history-item')
        .find((el) => el.getAttribute('data-run-id') === 'run-a')!;
      await act(async () => fireEvent.click(item));
      await flush();
      const row = document.querySelector(`[data-testid="timeline-step"][data-step="${step}"]`)!;
      await act(async () => fireEvent.click(row));
      await flush();
    };
    await open(2);
    expect(screen.queryByTestId('fork-without-files')).toBeNull();
    await open(1);
    expect(screen.getByTestId('fork-panel').textContent).toContain('No snapshot of this step');
    await act(async () => fireEvent.click(screen.getByTestId('fork-submit')));
    await flush();
    expect(api.calls.filter((c) => c.method === 'forkRun').at(-1)?.input).toEqual({
      runId: 'run-a',
      step: 1,
    });
    await open(1);
    await act(async () => fireEvent.click(screen.getByTestId('fork-without-files')));
    await act(async () => fireEvent.click(screen.getByTestId('fork-submit')));
    await flush();
    expect(api.calls.filter((c) => c.method === 'forkRun').at(-1)?.input).toEqual({
      runId: 'run-a',
      step: 1,
      withoutFiles: true,
    });
  });
});
