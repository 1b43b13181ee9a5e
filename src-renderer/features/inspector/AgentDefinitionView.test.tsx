/**
 * The inspector shows the agent definition a run ran with (`run.started.agentDefinition`):
 * before any row is selected and on the run's first row, with its version, prompts,
 * tools, profile and settings, and a link to the agent on the Agents page.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordedAgentDefinition } from '@shared/domain/agent-definition';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

const RECORDED: RecordedAgentDefinition = {
  definition: {
    name: 'reviewer',
    description: 'Reviews a change.',
    system_prompt: 'You are {{agent_name}} in {{work_dir}}.',
    next_step_prompt: 'Next?',
    tools: ['bash', 'files/read_*', 'terminate'],
    terminate_tools: ['terminate'],
    profile: 'fast',
    run: { max_steps: 30, tool_choice: 'required' },
  },
  hash: '0123456789abcdef',
  version: 3,
  source: 'home',
  path: '/home/me/.agent-workbench/agents/reviewer.toml',
};

async function openRun(recorded?: RecordedAgentDefinition) {
  const script = new RunScript('run-def', 'reviewer').start('review it');
  const started = script.events[0]!;
  if (recorded && started.type === 'run.started') started.agentDefinition = recorded;
  script.addStep({ content: 'looking' });
  script.endStep();
  script.finish();
  const api = createMemoryApi();
  api.history.set(script.runId, script.events);
  await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  await flush();
}

describe('the inspector: the agent definition of a run', () => {
  it('shows name, version, prompts, tools, profile and settings, linked to the Agents page', async () => {
    await openRun(RECORDED);
    const view = screen.getByTestId('run-agent-definition');
    expect(view.getAttribute('data-agent')).toBe('reviewer');
    expect(view.getAttribute('data-version')).toBe('3');
    const text = view.textContent ?? '';
    expect(text).toContain('reviewer v3');
    expect(text).toContain('your agents folder: /home/me/.agent-workbench/agents/reviewer.toml');
    expect(text).toContain('You are {{agent_name}} in {{work_dir}}.');
    expect(text).toContain('Next?');
    expect(text).toContain('bash, files/read_*, terminate');
    expect(text).toContain('fast');
    expect(text).toContain('max_steps = 30 · tool_choice = "required"');
    expect(within(view).getByTestId('run-agent-link').getAttribute('href')).toBe(
      '#/agents/reviewer',
    );
    // and on the run's first row, once selected
    const first = document.querySelector('[data-item-id="1"]') as HTMLElement;
    await act(async () => fireEvent.click(first));
    await flush();
    expect(screen.queryByTestId('inspector-empty')).toBeNull();
    expect(screen.getByTestId('run-agent-definition').getAttribute('data-version')).toBe('3');
  });

  it('shows nothing for a run that recorded no definition (older runs, flows)', async () => {
    await openRun();
    expect(screen.queryByTestId('run-agent-definition')).toBeNull();
  });
});
