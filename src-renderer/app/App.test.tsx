import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configView } from '../testing/config-fixture';
import { createMemoryApi } from '../testing/memory-api';
import { flush, renderApp } from '../testing/render-app';
import { RunScript } from '../testing/run-script';

describe('App', () => {
  it('is ready once the history is loaded, and starts on the new-run page', async () => {
    const api = createMemoryApi({ config: configView() });
    const { container } = await renderApp(api);
    expect(container.querySelector('[data-app-state]')?.getAttribute('data-app-state')).toBe(
      'ready',
    );
    expect(screen.getByTestId('run-empty')).toBeTruthy();
    expect(screen.getByTestId('task-input')).toBeTruthy();
  });

  it('starts a run from the task box and streams its state, step counter and rows in', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'list files' } });
    fireEvent.change(screen.getByTestId('agent-select'), { target: { value: 'swe' } });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(api.calls.find((c) => c.method === 'startRun')?.input).toEqual({
      task: 'list files',
      agent: 'swe',
    });

    const script = new RunScript('run-1', 'swe', { maxSteps: 20 }).start('list files');
    act(() => api.push(script.events.splice(0)));
    script.emit({ type: 'step.started', agent: 'swe', step: 1, maxSteps: 20 });
    act(() => api.push(script.events.splice(0)));
    expect(screen.getByTestId('agent-state').textContent).toBe('RUNNING');
    expect(screen.getByTestId('step-counter').textContent).toBe('1 / 20');
    expect(screen.getByTestId('run-stop')).toBeTruthy();

    const all = new RunScript('run-1', 'swe', { maxSteps: 20 }).start('list files');
    all.addStep({
      content: 'Listing',
      calls: [{ name: 'bash', args: { command: 'ls' }, output: 'a.txt' }],
    });
    all.endStep();
    all.finish();
    act(() => api.push(all.events.slice(4)));
    // one badge: the state while it runs, the outcome once it ended
    expect(screen.queryByTestId('agent-state')).toBeNull();
    expect(screen.getByTestId('run-outcome').textContent).toBe('finished');
    expect(screen.getByTestId('run-outcome').getAttribute('data-tone')).toBe('good');
    expect(screen.queryByTestId('run-stop')).toBeNull();
    expect(screen.getAllByTestId('timeline-step').map((s) => s.getAttribute('data-step'))).toEqual([
      '1',
    ]);
    const tool = screen.getByTestId('tool-call');
    expect(tool.getAttribute('data-tool')).toBe('bash');
    expect(tool.textContent).toContain('a.txt');
    expect(screen.getByTestId('run-finished').getAttribute('data-outcome')).toBe('finished');
  });

  it('shows the validation error for an empty task without calling the API', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(screen.getByTestId('run-start-error').textContent).toMatch(/Describe the task/);
    expect(api.calls.some((c) => c.method === 'startRun')).toBe(false);
  });

  it('shows the main process’s error where the run was started', async () => {
    const api = createMemoryApi();
    api.override('startRun', async () => {
      throw new Error('[agent.manus] llm = "x" names a profile that does not exist');
    });
    await renderApp(api);
    fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'go' } });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(screen.getByTestId('run-start-error').textContent).toContain(
      'names a profile that does not exist',
    );
  });

  it('reopens a finished run from the history with the same timeline', async () => {
    const api = createMemoryApi();
    const script = new RunScript('old', 'manus').start('an old task');
    script.addStep({ content: 'again' });
    script.addStep({ content: 'again' });
    script.finish();
    api.history.set('old', script.events);
    await renderApp(api);
    const item = screen.getByTestId('run-history-item');
    expect(item.getAttribute('data-status')).toBe('finished');
    await act(async () => fireEvent.click(item));
    await flush();
    expect(screen.getAllByTestId('timeline-step')).toHaveLength(2);
    const dup = screen
      .getAllByTestId('timeline-message')
      .find((m) => m.getAttribute('data-duplicate') === 'true');
    expect(dup?.getAttribute('data-duplicate-of')).toBe('1');
  });

  it('stops a live run', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    const script = new RunScript('live').start('t');
    act(() => api.push(script.events));
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    await act(async () => fireEvent.click(screen.getByTestId('run-stop')));
    expect(api.calls.find((c) => c.method === 'stopRun')?.input).toEqual({ runId: 'live' });
    expect(screen.getByTestId('run-stop').textContent).toBe('Stopping…');
    act(() => api.push(script.finish('cancelled').events.slice(-2)));
    expect(screen.getByTestId('run-outcome').textContent).toBe('cancelled');
  });

  it('answers the agent’s question', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    const script = new RunScript('ask').start('t');
    script.emit({ type: 'human.requested', toolCallId: 'h1', question: 'Which branch?' });
    act(() => api.push(script.events));
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    expect(screen.getByTestId('human-question').textContent).toContain('Which branch?');
    fireEvent.change(screen.getByTestId('human-answer-input'), { target: { value: 'main' } });
    await act(async () => fireEvent.click(screen.getByTestId('human-answer-send')));
    expect(api.calls.find((c) => c.method === 'answerHuman')?.input).toEqual({
      runId: 'ask',
      toolCallId: 'h1',
      answer: 'main',
    });
  });

  it('shows a plan for a PlanningFlow run', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    const script = new RunScript('plan', 'planning').start('t', 'planning');
    script.emit({
      type: 'plan.updated',
      planId: 'p1',
      title: 'Ship it',
      steps: [
        { text: 'write', status: 'completed' },
        { text: 'test', status: 'in_progress' },
      ],
    });
    act(() => api.push(script.events));
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    const plan = screen.getByTestId('plan-view');
    expect(
      within(plan)
        .getAllByTestId('plan-step')
        .map((s) => s.getAttribute('data-status')),
    ).toEqual(['completed', 'in_progress']);
  });

  it('says when Docker is unavailable', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    const pill = screen.getByTestId('sandbox-status');
    expect(pill.getAttribute('data-status')).toBe('unavailable');
    await act(async () => fireEvent.click(pill));
    expect(screen.getByTestId('sandbox-details').textContent).toContain('Docker is not available');
  });
});
