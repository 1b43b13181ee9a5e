import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createEventStamper, type RunEvent } from '@shared/events';
import type { AppApi } from '@shared/ipc';
import { startBridge } from '../store/bridge';
import { createWorkbenchStore } from '../store/store';
import { StoreProvider } from '../store/StoreProvider';
import { App } from './App';

function fakeApi() {
  let push: ((batch: RunEvent[]) => void) | null = null;
  const api: AppApi = {
    startRun: vi.fn(async () => ({ runId: 'r1' })),
    stopRun: vi.fn(async () => ({ stopped: true })),
    listRuns: vi.fn(async () => []),
    onRunEvents: (listener) => {
      push = listener;
      return () => (push = null);
    },
  };
  return { api, push: (batch: RunEvent[]) => act(() => push?.(batch)) };
}

describe('App (first slice)', () => {
  it('starts a run from the task box and shows its state and step counter as events arrive', async () => {
    const { api, push } = fakeApi();
    const store = createWorkbenchStore();
    startBridge(api, store);
    render(
      <StoreProvider store={store} api={api}>
        <App />
      </StoreProvider>,
    );
    expect(screen.getByTestId('run-empty')).toBeTruthy();
    fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'list files' } });
    await act(async () => fireEvent.click(screen.getByTestId('start-run')));
    expect(api.startRun).toHaveBeenCalledWith({ task: 'list files', agent: 'manus' });

    const s = createEventStamper('r1');
    push([
      s.stamp({
        type: 'run.started',
        agent: 'manus',
        task: 'list files',
        maxSteps: 20,
        model: 'demo',
        sessionId: 's',
      }),
      s.stamp({ type: 'state.changed', agent: 'manus', from: 'IDLE', to: 'RUNNING' }),
      s.stamp({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 }),
    ]);
    expect(screen.getByTestId('agent-state').textContent).toBe('RUNNING');
    expect(screen.getByTestId('step-counter').textContent).toBe('1 / 20');
    push([s.stamp({ type: 'state.changed', agent: 'manus', from: 'RUNNING', to: 'FINISHED' })]);
    expect(screen.getByTestId('agent-state').textContent).toBe('FINISHED');
    expect(screen.getByTestId('event-list').querySelectorAll('li')).toHaveLength(4);
  });

  it('shows the validation error for an empty task without calling the API', async () => {
    const { api } = fakeApi();
    const store = createWorkbenchStore();
    render(
      <StoreProvider store={store} api={api}>
        <App />
      </StoreProvider>,
    );
    await act(async () => fireEvent.click(screen.getByTestId('start-run')));
    expect(screen.getByRole('alert').textContent).toMatch(/Describe the task/);
    expect(api.startRun).not.toHaveBeenCalled();
  });
});
