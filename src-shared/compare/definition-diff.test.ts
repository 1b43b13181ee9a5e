import { describe, expect, it } from 'vitest';
import type { RecordedAgentDefinition } from '../domain/agent-definition';
import { diffAgentDefinitions } from './definition-diff';

const base: RecordedAgentDefinition = {
  definition: {
    name: 'mine',
    description: 'd',
    system_prompt: 'You are mine.\nBe brief.',
    next_step_prompt: '',
    tools: ['bash', 'terminate'],
    terminate_tools: ['terminate'],
    run: { max_steps: 5 },
  },
  hash: '0123456789abcdef',
  version: 1,
  source: 'home',
};

describe('diffAgentDefinitions', () => {
  it('names the changed prompt, tool list, profile and run settings', () => {
    const next: RecordedAgentDefinition = {
      ...base,
      hash: 'fedcba9876543210',
      version: 2,
      definition: {
        ...base.definition,
        system_prompt: 'You are mine.\nBe thorough.',
        tools: ['bash', 'browser', 'terminate'],
        profile: 'fast',
        run: { max_steps: 9 },
      },
    };
    expect(diffAgentDefinitions(base, next)).toEqual({
      a: 'mine v1 (01234567)',
      b: 'mine v2 (fedcba98)',
      changes: [
        { key: 'system_prompt', a: 'You are mine.\nBe brief.', b: 'You are mine.\nBe thorough.' },
        { key: 'tools', a: 'bash\nterminate', b: 'bash\nbrowser\nterminate' },
        { key: 'profile', a: '(default)', b: 'fast' },
        { key: 'run.max_steps', a: '5', b: '9' },
      ],
    });
  });

  it('is null for the same definition or a run that recorded none', () => {
    expect(diffAgentDefinitions(base, { ...base })).toBeNull();
    expect(diffAgentDefinitions(base, undefined)).toBeNull();
  });
});
