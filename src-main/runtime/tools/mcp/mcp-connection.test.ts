import { describe, expect, it } from 'vitest';
import { McpConnection } from './mcp-connection';

describe('how an MCP server is named in messages', () => {
  it('leaves out arguments, URL credentials and query strings, which can hold tokens', () => {
    const stdio = new McpConnection('gh', {
      type: 'stdio',
      command: 'github-mcp',
      args: ['--token', 'ghp_secret123'],
      env: { GITHUB_TOKEN: 'ghp_secret456' },
      timeout: 60,
    });
    expect(stdio.describe()).toBe('MCP server "gh" (stdio: github-mcp)');
    const http = new McpConnection('api', {
      type: 'http',
      url: 'https://user:pw@example.org/mcp?key=sk-secret',
      args: [],
      env: {},
      timeout: 60,
    });
    expect(http.describe()).toBe('MCP server "api" (http: https://example.org/mcp)');
    expect(`${stdio.describe()} ${http.describe()}`).not.toMatch(/secret|pw/);
  });
});
