import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TerminalCommandInput, UserCommandRecord } from '@shared/ipc';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';
import { RUNNING_REASON } from './TerminalPanel';

const record = (input: TerminalCommandInput, seq: number): UserCommandRecord => ({
  type: 'user.command',
  runId: input.runId,
  seq,
  ts: 1,
  command: input.command,
  output: 'sandbox-host',
  exitCode: 0,
  durationMs: 12,
  timedOut: false,
  runState: 'paused',
  containerId: 'c1',
});

async function openTerminal() {
  const api = createMemoryApi();
  let seq = 0;
  api.override('runSandboxCommand', async (input: TerminalCommandInput) => record(input, ++seq));
  const { store } = await renderApp(api);
  const script = new RunScript('run-1', 'manus').start('look around');
  script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
  act(() => api.push(script.events.splice(0)));
  act(() => store.getState().selectRun('run-1'));
  fireEvent.click(screen.getByTestId('terminal-toggle'));
  return { api, script };
}

const panel = () => screen.getByTestId('terminal-panel');
const input = () => screen.getByTestId('terminal-input') as HTMLInputElement;

describe('the terminal panel', () => {
  it('is read-only with a reason while the agent runs, takes commands while paused, and again read-only once resumed', async () => {
    const { api, script } = await openTerminal();
    expect(panel().getAttribute('data-enabled')).toBe('false');
    expect(input().disabled).toBe(true);
    expect(screen.getByTestId('terminal-reason').textContent).toBe(RUNNING_REASON);

    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 1,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    });
    act(() => api.push(script.events.splice(0)));
    expect(panel().getAttribute('data-enabled')).toBe('true');
    expect(screen.queryByTestId('terminal-reason')).toBeNull();
    fireEvent.change(input(), { target: { value: 'hostname' } });
    fireEvent.click(screen.getByTestId('terminal-run'));
    await waitFor(() => expect(screen.getAllByTestId('terminal-entry')).toHaveLength(1));
    expect(api.calls.filter((c) => c.method === 'runSandboxCommand').map((c) => c.input)).toEqual([
      { runId: 'run-1', command: 'hostname' },
    ]);
    expect(screen.getByTestId('terminal-entry').textContent).toContain('sandbox-host');

    script.emit({
      type: 'run.resumed',
      agent: 'manus',
      step: 1,
      mode: 'continue',
      by: 'ui',
      pausedMs: 5,
    });
    act(() => api.push(script.events.splice(0)));
    expect(panel().getAttribute('data-enabled')).toBe('false');
    expect(input().disabled).toBe(true);
    // what was typed stays visible
    expect(screen.getAllByTestId('terminal-entry')).toHaveLength(1);
  });

  it('shows a typed command in the timeline as a user action, live and after a reload', async () => {
    const { api, script } = await openTerminal();
    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 1,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    });
    act(() => api.push(script.events.splice(0)));
    expect(screen.queryByTestId('timeline-user-action')).toBeNull();
    fireEvent.change(input(), { target: { value: 'hostname' } });
    fireEvent.click(screen.getByTestId('terminal-run'));
    const row = await screen.findByTestId('timeline-user-action');
    expect(row.textContent).toContain('you · terminal');
    expect(row.textContent).toContain('$ hostname');
    expect(row.textContent).toContain('sandbox-host');
    expect(row.getAttribute('data-run-state')).toBe('paused');
    // not an agent step: the step rows are the agent's alone
    expect(screen.getAllByTestId('timeline-step')).toHaveLength(1);

    // a new page: the timeline reads the run's user-actions log
    const reloaded = createMemoryApi();
    const events = [...api.history.get('run-1')!];
    reloaded.history.set('run-1', events);
    const typed = record({ runId: 'run-1', command: 'ls -la' }, 1);
    reloaded.override('listSandboxCommands', async () => ({
      commands: [{ ...typed, ts: events.at(-1)!.ts + 1 }],
    }));
    cleanup();
    await renderApp(reloaded);
    await act(async () => fireEvent.click(screen.getAllByTestId('run-history-item')[0]!));
    const again = await screen.findByTestId('timeline-user-action');
    expect(again.textContent).toContain('$ ls -la');
  });

  it('takes commands once the run finished', async () => {
    const { api, script } = await openTerminal();
    script.finish('finished');
    act(() => api.push(script.events.splice(0)));
    expect(panel().getAttribute('data-enabled')).toBe('true');
    expect(input().disabled).toBe(false);
  });

  it('shows why a command was refused', async () => {
    const { api, script } = await openTerminal();
    script.finish('finished');
    act(() => api.push(script.events.splice(0)));
    api.override('runSandboxCommand', async () => {
      throw new Error('The sandbox is off');
    });
    fireEvent.change(input(), { target: { value: 'ls' } });
    fireEvent.click(screen.getByTestId('terminal-run'));
    await waitFor(() =>
      expect(screen.getByTestId('terminal-error').textContent).toBe('The sandbox is off'),
    );
  });
});
