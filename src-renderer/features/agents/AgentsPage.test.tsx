/**
 * The Agents page (issue 28 item 2) over the in-memory API: the list and its actions, the
 * editor's field problems before Save, highlighted variables and token counts, the tool
 * picker's details, a built-in agent read-only, and Run opening New Run with the agent,
 * whose start sends the agent reference.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { promptParts } from './prompt-text';

async function openAgents() {
  const api = createMemoryApi();
  const rendered = await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('nav-agents')));
  await waitFor(() => expect(screen.getByTestId('agent-list')).toBeTruthy());
  return { api, ...rendered };
}

const row = (name: string) =>
  document.querySelector(`[data-testid="agent-row"][data-agent="${name}"]`) as HTMLElement;

describe('the Agents page', () => {
  it('lists the agents and creates one, whose editor opens at #/agents/NAME', async () => {
    const { store } = await openAgents();
    expect(row('manus').dataset['source']).toBe('builtin');
    fireEvent.click(screen.getByTestId('agent-new'));
    fireEvent.change(screen.getByTestId('agent-name-input'), { target: { value: 'mine' } });
    await act(async () => fireEvent.click(screen.getByTestId('agent-name-submit')));
    await waitFor(() => expect(screen.getByTestId('agent-editor').dataset['agent']).toBe('mine'));
    expect(store.getState().agentName).toBe('mine');
    expect(window.location.hash).toBe('#/agents/mine');
  });

  it('shows a built-in agent read-only, with Duplicate', async () => {
    await openAgents();
    await act(async () => fireEvent.click(within(row('manus')).getByText('manus')));
    await waitFor(() => expect(screen.getByTestId('agent-editor')).toBeTruthy());
    expect(screen.getByTestId('agent-version').textContent).toBe('built-in, read-only');
    expect(screen.queryByTestId('agent-save')).toBeNull();
    const input = screen.getByTestId('agent-system-prompt-input') as HTMLTextAreaElement;
    expect(input.readOnly).toBe(true);
    fireEvent.click(screen.getByTestId('agent-duplicate'));
    fireEvent.change(screen.getByTestId('agent-name-input'), { target: { value: 'my-manus' } });
    await act(async () => fireEvent.click(screen.getByTestId('agent-name-submit')));
    await waitFor(() =>
      expect(screen.getByTestId('agent-editor').dataset['agent']).toBe('my-manus'),
    );
    await waitFor(() => expect(screen.queryByTestId('agent-save')).not.toBeNull());
  });

  it("shows the host's field problems before Save, highlights variables and counts tokens", async () => {
    const { api, store } = await openAgents();
    await act(async () => {
      await api.createAgent({ name: 'mine' });
    });
    api.override('validateAgent', async ({ definition }) => ({
      issues: definition.system_prompt.includes('{{workdir}}')
        ? [{ path: 'system_prompt', message: 'unknown template variable {{workdir}}' }]
        : [],
      tokens: { system_prompt: 42, next_step_prompt: 7 },
    }));
    await act(async () => store.getState().showAgents('mine'));
    await waitFor(() => expect(screen.getByTestId('agent-editor')).toBeTruthy());
    const input = screen.getByTestId('agent-system-prompt-input');
    fireEvent.change(input, { target: { value: 'At {{workdir}} on {{date}}' } });
    const editor = screen.getByTestId('agent-system-prompt');
    const marks = editor.querySelectorAll('mark');
    expect([...marks].map((m) => `${m.textContent} ${m.dataset['known']}`)).toEqual([
      '{{workdir}} false',
      '{{date}} true',
    ]);
    await waitFor(() =>
      expect(within(editor).getByRole('alert').textContent).toContain('{{workdir}}'),
    );
    expect(screen.getByTestId('agent-system-prompt-tokens').textContent).toBe('42 tokens');
    fireEvent.change(input, { target: { value: 'At {{work_dir}}' } });
    // until the host counted the new text: an estimate
    expect(screen.getByTestId('agent-system-prompt-tokens').textContent).toMatch(/^≈/);
    await waitFor(() => expect(within(editor).queryByRole('alert')).toBeNull());
    await act(async () => fireEvent.click(screen.getByTestId('agent-save')));
    await waitFor(() =>
      expect(screen.getByTestId('agent-notice').textContent).toBe('Saved as version 2'),
    );
    const saved = api.calls.find((c) => c.method === 'saveAgent')?.input as {
      definition: { system_prompt: string };
    };
    expect(saved.definition.system_prompt).toBe('At {{work_dir}}');
  });

  it("picks tools with their description and schema, and says why a server's tools are missing", async () => {
    const { api, store } = await openAgents();
    await act(async () => {
      await api.createAgent({ name: 'mine' });
    });
    await act(async () => store.getState().showAgents('mine'));
    await waitFor(() => expect(screen.getAllByTestId('agent-tool').length).toBe(3));
    const bash = document.querySelector('[data-tool="bash"]') as HTMLElement;
    fireEvent.click(within(bash).getByText('details'));
    expect(within(bash).getByTestId('agent-tool-details').textContent).toContain('"arg"');
    const python = document.querySelector('[data-tool="python_execute"]') as HTMLElement;
    fireEvent.click(within(python).getByTestId('agent-tool-pick'));
    expect(screen.getByTestId('agent-tool-server-error').textContent).toContain('gone');
    await act(async () => fireEvent.click(screen.getByTestId('agent-save')));
    const saved = api.calls.find((c) => c.method === 'saveAgent')?.input as {
      definition: { tools: string[] };
    };
    expect(saved.definition.tools).toEqual(['bash', 'terminate']);
  });

  it('Run opens New Run with the agent chosen; starting sends its reference', async () => {
    const { api, store } = await openAgents();
    await act(async () => {
      await api.createAgent({ name: 'mine' });
    });
    await act(async () => store.getState().showAgents('mine'));
    await waitFor(() => expect(screen.getByTestId('agent-run')).toBeTruthy());
    await act(async () => fireEvent.click(screen.getByTestId('agent-run')));
    await flush();
    const select = screen.getByTestId('agent-select') as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('agent:mine'));
    fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'do it' } });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(api.calls.find((c) => c.method === 'startRun')?.input).toEqual({
      task: 'do it',
      agent: 'manus',
      agentRef: 'mine',
    });
  });
});

describe('promptParts', () => {
  it('cuts a template into text and variables, known or not, spaces inside braces allowed', () => {
    expect(promptParts('a {{ date }} b {{nope}}')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'variable', text: '{{ date }}', name: 'date', isKnown: true },
      { kind: 'text', text: ' b ' },
      { kind: 'variable', text: '{{nope}}', name: 'nope', isKnown: false },
    ]);
  });
});
