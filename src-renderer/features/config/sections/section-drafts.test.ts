import { describe, expect, it } from 'vitest';
import { serverFromDraft } from './McpSettings';
import { parseSectionValue, SANDBOX_FIELDS } from './section-fields';

const spec = (key: string) => SANDBOX_FIELDS.find((f) => f.key === key)!;
const draft = {
  name: 'files',
  type: 'stdio' as const,
  command: 'npx',
  args: '-y\n@modelcontextprotocol/server-filesystem\n/tmp/my dir',
  url: '',
  env: 'TOKEN=a=b\n',
  timeout: '',
};

describe('settings sections, as typed', () => {
  it('checks [sandbox] values the way the config schema does', () => {
    expect(parseSectionValue(spec('memory_limit'), '768m')).toEqual({ value: '768m' });
    expect(parseSectionValue(spec('memory_limit'), 'lots')).toEqual({
      error: 'must look like 512m or 2g',
    });
    expect(parseSectionValue(spec('pids_limit'), '8')).toEqual({ error: 'must be at least 16' });
    expect(parseSectionValue(spec('cpu_limit'), '1.5')).toEqual({ value: 1.5 });
    expect(parseSectionValue(spec('image'), ' ')).toEqual({ error: 'must name an image' });
    expect(parseSectionValue(spec('network_enabled'), true)).toEqual({ value: true });
  });

  it('turns an MCP server form into [mcp.servers.NAME], one argument per line', () => {
    expect(serverFromDraft(draft)).toEqual({
      server: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/my dir'],
        env: { TOKEN: 'a=b' },
      },
    });
    expect(serverFromDraft({ ...draft, name: 'my server' })).toMatchObject({
      error: expect.stringMatching(/letters, digits/),
    });
    expect(serverFromDraft({ ...draft, type: 'http', url: 'ftp://x' })).toMatchObject({
      error: 'The http server needs an http(s) URL',
    });
    expect(serverFromDraft({ ...draft, env: 'NOVALUE' })).toMatchObject({
      error: expect.stringMatching(/KEY=VALUE/),
    });
    expect(
      serverFromDraft({ ...draft, type: 'sse', url: 'http://127.0.0.1:8000/sse', timeout: '30' }),
    ).toEqual({
      server: { type: 'sse', url: 'http://127.0.0.1:8000/sse', env: { TOKEN: 'a=b' }, timeout: 30 },
    });
  });
});
