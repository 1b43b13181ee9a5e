import { describe, expect, it } from 'vitest';
import { BROWSER_ACTIONS } from '../../tools/browser/browser-actions';
import { BROWSER_TOOL_NAME } from '../../tools/browser/browser-tool';
import { BROWSER_NEXT_STEP_PROMPT, BROWSER_SYSTEM_PROMPT } from './browser';

describe('browser agent prompts', () => {
  const prompts = [BROWSER_SYSTEM_PROMPT, BROWSER_NEXT_STEP_PROMPT];

  it('fixes openmanus 7.2 item 13: no reply format, no unknown action, no unfilled placeholder', () => {
    for (const prompt of prompts) {
      expect(prompt).not.toMatch(/\{\{|\}\}|\{[a-z_]+\}/); // {{max_actions}} in the original
      expect(prompt).not.toMatch(/JSON/i); // the original demanded a JSON reply format
      expect(prompt).not.toMatch(/[`"']done[`"']/); // ...and a `done` action that did not exist
    }
    // Every snake_case action the prompt names is one the tool has.
    const named = BROWSER_SYSTEM_PROMPT.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const action of named) expect(BROWSER_ACTIONS).toContain(action);
    expect(BROWSER_SYSTEM_PROMPT).toContain(`\`${BROWSER_TOOL_NAME}\` tool`);
    expect(BROWSER_SYSTEM_PROMPT).toContain('`terminate`');
  });
});
