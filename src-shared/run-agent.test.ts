import { describe, expect, it } from 'vitest';
import { canStartAgentAgain, whyAgentCannotStart } from './run-agent';

describe('canStartAgentAgain', () => {
  it('accepts built-in agents, flows and versioned user agents', () => {
    expect(canStartAgentAgain({ agent: 'manus' })).toBe(true);
    expect(canStartAgentAgain({ agent: 'planning', flow: 'planning' })).toBe(true);
    expect(canStartAgentAgain({ agent: 'my-coder', agentVersion: 3 })).toBe(true);
  });

  it('refuses agents the workbench only recorded, saying what to do instead', () => {
    for (const agent of ['external: crew', 'sandbox', 'otel-demo-agent', 'my-coder']) {
      expect(canStartAgentAgain({ agent })).toBe(false);
    }
    expect(whyAgentCannotStart('r1', { agent: 'external: crew' })).toMatch(/gateway --replay/);
    expect(whyAgentCannotStart('r1', { agent: 'sandbox' })).toMatch(/MCP client/);
    expect(whyAgentCannotStart('r1', { agent: 'otel-demo-agent' })).toMatch(/OpenTelemetry/);
    expect(whyAgentCannotStart('r1', { agent: 'manus' })).toBeUndefined();
  });
});
