import { describe, expect, it } from 'vitest';
import { MCP_NEXT_STEP_PROMPT, mcpSystemPrompt } from './mcp';

describe('mcp agent prompts', () => {
  it('fixes openmanus 7.2 item 13: lists the real tool names, claims nothing about images, fills every placeholder', () => {
    const prompt = mcpSystemPrompt('files', ['mcp_files_read', 'mcp_files_write']);
    expect(prompt).toContain('MCP server "files"');
    expect(prompt).toContain('- mcp_files_read\n- mcp_files_write');
    expect(prompt).toContain('call the `terminate` tool');
    // The original's multimedia prompt said images had been "described"; they were not.
    expect(prompt).not.toMatch(/described/i);
    for (const text of [prompt, MCP_NEXT_STEP_PROMPT]) {
      expect(text).not.toMatch(/\{\{|\}\}|\$\{|\{[a-z_]+\}/);
    }
    expect(mcpSystemPrompt('empty', [])).toContain('- (none)');
  });
});
