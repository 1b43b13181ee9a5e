import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema';
import { chooseMcpServer } from './mcp-agent';

const server = { type: 'stdio', command: 'node', args: ['server.js'] };

describe('which MCP server the mcp agent uses', () => {
  it('uses the only configured server', () => {
    expect(chooseMcpServer(configSchema.parse({ mcp: { servers: { files: server } } }))).toBe(
      'files',
    );
  });

  it('says how to add one when none is configured', () => {
    expect(() => chooseMcpServer(configSchema.parse({}))).toThrow(/\[mcp\.servers\.files\]/);
  });

  it('asks for [mcp] agent_server when several are configured, and honours it', () => {
    const two = { files: server, web: { type: 'http', url: 'http://127.0.0.1:1/mcp' } };
    expect(() => chooseMcpServer(configSchema.parse({ mcp: { servers: two } }))).toThrow(
      /Several MCP servers.*files, web.*agent_server/,
    );
    expect(
      chooseMcpServer(configSchema.parse({ mcp: { servers: two, agent_server: 'web' } })),
    ).toBe('web');
    expect(() =>
      chooseMcpServer(configSchema.parse({ mcp: { servers: two, agent_server: 'nope' } })),
    ).toThrow(/agent_server = "nope" names no configured server/);
  });
});
