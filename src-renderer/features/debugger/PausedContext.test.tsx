import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configView } from '../../testing/config-fixture';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

describe('paused before a model call', () => {
  it('edits a message, adds one, changes the model and types the reply, each as an edit of the run', async () => {
    const api = createMemoryApi({ config: configView({ swe: 'gpt-4o-mini' }) });
    const { store } = await renderApp(api);
    const script = new RunScript('run-1', 'manus').start('the original task');
    script.addStep({
      content: 'first',
      calls: [{ name: 'bash', args: { command: 'ls' }, output: 'a' }],
    });
    script.endStep();
    script.emit({ type: 'step.started', agent: 'manus', step: 2, maxSteps: 20 });
    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 2,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    });
    act(() => api.push(script.events.splice(0)));
    act(() => store.getState().selectRun('run-1'));

    const select = screen.getByTestId('context-edit-index');
    // the context window as the model will get it: task, reply, tool result
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Edit a message…',
      '#0 user: the original task',
      '#1 assistant: first',
      '#2 tool: Observed output of cmd `bash`: a',
    ]);
    fireEvent.change(select, { target: { value: '0' } });
    expect((screen.getByTestId('context-edit-input') as HTMLTextAreaElement).value).toBe(
      'the original task',
    );
    fireEvent.change(screen.getByTestId('context-edit-input'), {
      target: { value: 'the better task' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('context-edit-save')));
    fireEvent.change(screen.getByTestId('context-add-input'), {
      target: { value: 'Hint: use ls -la' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('context-add')));
    fireEvent.change(screen.getByTestId('model-profile-select'), { target: { value: 'swe' } });
    fireEvent.change(screen.getByTestId('model-temperature-input'), { target: { value: '0.3' } });
    await act(async () => fireEvent.click(screen.getByTestId('model-change')));
    fireEvent.change(screen.getByTestId('reply-input'), { target: { value: 'All done.' } });
    fireEvent.change(screen.getByTestId('reply-tool-input'), {
      target: { value: 'terminate {"status":"success"}' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('reply-use')));

    const edits = api.calls
      .filter((c) => c.method === 'editRun')
      .map((c) => (c.input as { edit: unknown }).edit);
    expect(edits).toEqual([
      { kind: 'edit_message', index: 0, content: 'the better task' },
      { kind: 'add_message', role: 'user', content: 'Hint: use ls -la' },
      { kind: 'change_model', profile: 'swe', temperature: 0.3 },
      {
        kind: 'provide_reply',
        content: 'All done.',
        toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }],
      },
    ]);
    // using the typed reply also resumes the run
    expect(api.calls.filter((c) => c.method === 'resumeRun')).toHaveLength(1);
  });
});
