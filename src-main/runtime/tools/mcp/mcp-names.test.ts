import { describe, expect, it } from 'vitest';
import {
  MAX_TOOL_NAME_LENGTH,
  McpNameCollisionError,
  checkNameCollisions,
  mcpToolName,
} from './mcp-names';

const OPENAI_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('prefixes the server and keeps only the characters OpenAI accepts', () => {
    expect(mcpToolName('files', 'read_file')).toBe('mcp_files_read_file');
    expect(mcpToolName('my server', 'dotted.name/x')).toBe('mcp_my_server_dotted_name_x');
    expect(mcpToolName('ünï', 'töol')).toMatch(OPENAI_NAME);
  });

  it('fits 64 characters and keeps long names with a shared prefix distinct', () => {
    const long = 'x'.repeat(80);
    const a = mcpToolName('server', `${long}_alpha`);
    const b = mcpToolName('server', `${long}_beta`);
    expect(a).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(b).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(a).toMatch(OPENAI_NAME);
    expect(a).not.toBe(b);
    // stable: the same tool gets the same name on every connection
    expect(mcpToolName('server', `${long}_alpha`)).toBe(a);
  });

  it('reports two tools that sanitise to the same name, naming both', () => {
    const tools = [
      { server: 's', tool: 'a.b', name: mcpToolName('s', 'a.b') },
      { server: 's', tool: 'a_b', name: mcpToolName('s', 'a_b') },
    ];
    expect(() => checkNameCollisions(tools)).toThrow(McpNameCollisionError);
    expect(() => checkNameCollisions(tools)).toThrow(/"a_b".*"a\.b".*mcp_s_a_b/);
  });

  it('reports servers whose names sanitise alike and tools that take a name the agent has', () => {
    const acrossServers = [
      { server: 'my-srv', tool: 't', name: mcpToolName('my-srv', 't') },
      { server: 'my.srv', tool: 't', name: mcpToolName('my.srv', 't') },
    ];
    expect(acrossServers[0]!.name).not.toBe(acrossServers[1]!.name);
    const clash = [
      { server: 'a b', tool: 't', name: mcpToolName('a b', 't') },
      { server: 'a_b', tool: 't', name: mcpToolName('a_b', 't') },
    ];
    expect(() => checkNameCollisions(clash)).toThrow(/Rename one of the servers/);
    expect(() =>
      checkNameCollisions([{ server: 's', tool: 't', name: 'mcp_s_t' }], ['mcp_s_t']),
    ).toThrow(/already has/);
    expect(() => checkNameCollisions(acrossServers, ['terminate'])).not.toThrow();
  });
});
