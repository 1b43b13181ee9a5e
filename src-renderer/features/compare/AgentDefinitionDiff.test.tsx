/**
 * "Agent definition differs" in the compare view (issue 28 item 3): shown only when the
 * two runs recorded different definitions, with a line diff of each changed field.
 */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RunFacts } from '@shared/compare/types';
import type { RecordedAgentDefinition } from '@shared/domain/agent-definition';
import { AgentDefinitionDiff } from './AgentDefinitionDiff';

const recorded = (
  version: number,
  system_prompt: string,
  tools: string[],
): RecordedAgentDefinition => ({
  definition: {
    name: 'mine',
    description: '',
    system_prompt,
    next_step_prompt: '',
    tools,
    terminate_tools: ['terminate'],
    run: {},
  },
  hash: `${version}`.repeat(16),
  version,
  source: 'home',
});
// only what the section reads of a run's facts
const facts = (agentDefinition?: RecordedAgentDefinition) =>
  ({ runId: 'r', agentDefinition }) as unknown as RunFacts;

describe('AgentDefinitionDiff', () => {
  it('shows each changed field as a line diff, the prompts and the tool lists', () => {
    const a = recorded(1, 'You are mine.\nBe brief.', ['bash', 'terminate']);
    const b = recorded(2, 'You are mine.\nBe thorough.', ['bash', 'browser', 'terminate']);
    const { getByTestId } = render(<AgentDefinitionDiff a={facts(a)} b={facts(b)} />);
    const section = getByTestId('compare-agent-definition');
    expect(section.textContent).toContain('mine v1 (11111111) → mine v2 (22222222)');
    const fields = [...section.querySelectorAll('[data-field]')].map((f) =>
      f.getAttribute('data-field'),
    );
    expect(fields).toEqual(['definition.system_prompt', 'definition.tools']);
    const prompt = section.querySelector('[data-field="definition.system_prompt"]')!;
    expect(prompt.querySelector('.side-a del')?.textContent).toContain('Be brief.');
    expect(prompt.querySelector('.side-b ins')?.textContent).toContain('Be thorough.');
    const tools = section.querySelector('[data-field="definition.tools"]')!;
    expect(tools.querySelector('.side-b ins')?.textContent).toContain('browser');
  });

  it('shows nothing when the definitions are the same, or a run recorded none', () => {
    const a = recorded(1, 'You are mine.', ['bash']);
    const same = render(<AgentDefinitionDiff a={facts(a)} b={facts(a)} />);
    expect(same.container.textContent).toBe('');
    const older = render(<AgentDefinitionDiff a={facts()} b={facts(a)} />);
    expect(older.container.textContent).toBe('');
  });
});
