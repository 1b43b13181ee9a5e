/**
 * The New run form picks a model profile from Settings' list (issue 25 item 3): the run
 * and its pre-flight are asked with that profile, and the form says which model it runs.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configView, llmFields, profileView } from '../../testing/config-fixture';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';

describe('New run: profile', () => {
  it('starts the run (and its pre-flight) on the profile picked from the list', async () => {
    const config = configView();
    config.profiles = ['fast'];
    config.profileViews = [
      ...config.profileViews,
      profileView('fast', llmFields({ model: 'gpt-e2e-fast' })),
    ];
    const api = createMemoryApi({ config });
    await renderApp(api);
    const select = screen.getByTestId('run-profile') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      "manus's own ([llm])",
      '[llm] default: gpt-4o',
      'fast: gpt-e2e-fast',
    ]);
    fireEvent.change(screen.getByTestId('agent-select'), { target: { value: 'swe' } });
    fireEvent.change(select, { target: { value: 'fast' } });
    expect(screen.getByTestId('new-run-model').textContent).toBe('model: gpt-e2e-fast');
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'preflightRun').at(-1)?.input).toEqual({
        agent: 'swe',
        profile: 'fast',
      }),
    );
    fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'which model' } });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(api.calls.find((c) => c.method === 'startRun')?.input).toEqual({
      task: 'which model',
      agent: 'swe',
      profile: 'fast',
    });
  });
});
