import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

async function pausedRun() {
  const api = createMemoryApi();
  const { store } = await renderApp(api);
  const script = new RunScript('run-1', 'manus').start('clean up');
  script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
  script.emit({
    type: 'run.paused',
    agent: 'manus',
    step: 1,
    point: 'before_tools',
    reasons: [{ kind: 'approval', tools: ['bash'] }],
    calls: [
      { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
      { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"rm x"}' } },
    ],
    awaitingApproval: ['c1', 'c2'],
  });
  act(() => api.push(script.events.splice(0)));
  act(() => store.getState().selectRun('run-1'));
  return { api, script };
}

const inputsOf = (api: ReturnType<typeof createMemoryApi>, method: string) =>
  api.calls.filter((c) => c.method === method).map((c) => c.input);

describe('the debugger bar', () => {
  it('shows a paused run with why it paused, and sends approve and skip for its calls', async () => {
    const { api } = await pausedRun();
    const bar = screen.getByTestId('debugger-bar');
    expect(bar.getAttribute('data-state')).toBe('paused');
    expect(bar.getAttribute('data-point')).toBe('before_tools');
    expect(screen.getByTestId('debug-reasons').textContent).toBe(
      'manus before the tool calls run: approval needed before running bash',
    );
    const [first, second] = screen.getAllByTestId('paused-call');
    expect(first!.getAttribute('data-decision')).toBe('waiting');
    await act(async () => fireEvent.click(within(first!).getByTestId('call-approve')));
    fireEvent.click(within(second!).getByTestId('call-skip'));
    fireEvent.change(within(second!).getByTestId('call-observation-input'), {
      target: { value: 'Do not delete files.' },
    });
    await act(async () => fireEvent.click(within(second!).getByTestId('call-save')));
    expect(inputsOf(api, 'editRun')).toEqual([
      { runId: 'run-1', edit: { kind: 'approve_call', toolCallId: 'c1' } },
      {
        runId: 'run-1',
        edit: { kind: 'skip_call', toolCallId: 'c2', observation: 'Do not delete files.' },
      },
    ]);
  });

  it('keys: p resumes a paused run, n and m step, and typing in a field is left alone', async () => {
    const { api, script } = await pausedRun();
    fireEvent.keyDown(screen.getByTestId('breakpoint-input'), { key: 'p' });
    expect(inputsOf(api, 'resumeRun')).toEqual([]);
    await act(async () => fireEvent.keyDown(document.body, { key: 'n' }));
    await act(async () => fireEvent.keyDown(document.body, { key: 'F11' }));
    expect(inputsOf(api, 'stepRun')).toEqual([
      { runId: 'run-1', scope: 'cycle' },
      { runId: 'run-1', scope: 'model' },
    ]);
    await act(async () => fireEvent.keyDown(document.body, { key: 'p' }));
    expect(inputsOf(api, 'resumeRun')).toEqual([{ runId: 'run-1' }]);
    // once resumed, p pauses
    script.emit({
      type: 'run.resumed',
      agent: 'manus',
      step: 1,
      mode: 'continue',
      by: 'ui',
      pausedMs: 5,
    });
    act(() => api.push(script.events.splice(0)));
    expect(screen.getByTestId('debugger-bar').getAttribute('data-state')).toBe('running');
    await act(async () => fireEvent.keyDown(document.body, { key: 'F8' }));
    expect(inputsOf(api, 'pauseRun')).toEqual([{ runId: 'run-1' }]);
  });

  it('a paused run reads PAUSED in the header and the history; Pause says it is pausing until it is', async () => {
    const { api, script } = await pausedRun();
    const row = () =>
      screen
        .getAllByTestId('run-history-item')
        .find((el) => el.getAttribute('data-run-id') === 'run-1')!;
    const badges = () =>
      [...document.querySelectorAll('.verdict[data-verdict], .verdict-badge[data-verdict]')].map(
        (el) => [el.getAttribute('data-verdict'), el.textContent?.trim()],
      );
    expect(badges()).toEqual([
      ['paused', 'PAUSED'],
      ['paused', 'PAUSED'],
    ]);
    expect(row().textContent).toContain('PAUSED');
    script.emit({
      type: 'run.resumed',
      agent: 'manus',
      step: 1,
      mode: 'continue',
      by: 'ui',
      pausedMs: 5,
    });
    act(() => api.push(script.events.splice(0)));
    expect(badges().map(([kind]) => kind)).toEqual(['running', 'running']);
    // Pause during a long command: the bar says so at once, and again when it pauses
    const bar = screen.getByTestId('debugger-bar');
    await act(async () => fireEvent.click(screen.getByTestId('debug-pause')));
    expect(bar.getAttribute('data-state')).toBe('pausing');
    expect(screen.getByTestId('debug-state').textContent).toMatch(/^Pausing…/);
    expect((screen.getByTestId('debug-pause') as HTMLButtonElement).disabled).toBe(true);
    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 2,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    });
    act(() => api.push(script.events.splice(0)));
    expect(bar.getAttribute('data-state')).toBe('paused');
    expect(screen.getByTestId('debug-state').textContent).toBe('Paused at step 2');
  });

  it('adds a breakpoint by its text form and refuses a bad one in place', async () => {
    const { api } = await pausedRun();
    fireEvent.change(screen.getByTestId('breakpoint-input'), { target: { value: 'loop' } });
    await act(async () => fireEvent.click(screen.getByTestId('breakpoint-add')));
    expect(screen.getByText(/Breakpoint "loop": unknown kind "loop"/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('breakpoint-input'), { target: { value: 'tool_error' } });
    await act(async () => fireEvent.click(screen.getByTestId('breakpoint-add')));
    expect(inputsOf(api, 'setBreakpoint')).toEqual([{ runId: 'run-1', spec: 'tool_error' }]);
  });
});

describe('new run with breakpoints', () => {
  it('sends the breakpoints and approval tools with the run, and checks them first', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'go' } });
    fireEvent.change(screen.getByTestId('run-breakpoints-input'), {
      target: { value: 'tool:bash, step:0' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(screen.getByTestId('run-start-error').textContent).toContain('Breakpoint "step:0"');
    expect(inputsOf(api, 'startRun')).toEqual([]);
    fireEvent.change(screen.getByTestId('run-breakpoints-input'), {
      target: { value: 'tool:bash, stuck' },
    });
    fireEvent.change(screen.getByTestId('run-approve-input'), {
      target: { value: 'bash str_replace_editor' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(inputsOf(api, 'startRun')).toEqual([
      {
        task: 'go',
        agent: 'manus',
        breakpoints: ['tool:bash', 'stuck'],
        approveTools: ['bash', 'str_replace_editor'],
      },
    ]);
  });
});
