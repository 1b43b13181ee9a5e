import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { editToml, findKeyLine, type TomlEdit } from './toml-document';

const TEXT = `top = 1
[llm]
model = "a" # note
[ llm . "my.profile" ]
model = "b"

[agent.manus]
'max_steps' = 3
`;

function edit(text: string, edits: TomlEdit[]): string {
  return editToml(text, parse(text) as Record<string, unknown>, edits).text;
}

describe('toml-document', () => {
  it('finds the line of a key, or of its table when the key is not written', () => {
    expect(findKeyLine(TEXT, ['top'])).toBe(1);
    expect(findKeyLine(TEXT, ['llm', 'model'])).toBe(3);
    expect(findKeyLine(TEXT, ['llm', 'my.profile', 'model'])).toBe(5);
    expect(findKeyLine(TEXT, ['agent', 'manus', 'max_steps'])).toBe(8);
    expect(findKeyLine(TEXT, ['agent', 'manus', 'missing'])).toBe(7);
    expect(findKeyLine(TEXT, ['nowhere', 'x'])).toBeUndefined();
  });

  it('finds keys inside dotted keys, inline tables and arrays of tables', () => {
    const text = `[sandbox]\nlimits = { memory = "1g", cpu = 2 }\n\n[mcp.servers]\nfs.command = "npx"\n\n[[extra]]\nname = "x"\n`;
    expect(findKeyLine(text, ['sandbox', 'limits', 'cpu'])).toBe(2);
    expect(findKeyLine(text, ['mcp', 'servers', 'fs', 'command'])).toBe(5);
    expect(findKeyLine(text, ['mcp', 'servers', 'fs', 'args'])).toBe(5);
    expect(findKeyLine(text, ['extra', 'name'])).toBe(8);
    expect(findKeyLine('not = [toml', ['not'])).toBeUndefined();
  });

  it('sets, replaces (keeping a trailing comment) and removes keys, leaving other lines alone', () => {
    const text = edit(TEXT, [
      { table: ['llm'], key: 'model', value: 'z' },
      { table: ['llm'], key: 'temperature', value: 0.25 },
      { table: ['agent', 'manus'], key: 'max_steps', value: undefined },
      { table: ['agent', 'swe'], key: 'max_steps', value: 9 },
      { table: ['llm', 'my.profile'], key: 'stream', value: false },
    ]);
    expect(text.split('\n')[2]).toBe('model = "z" # note');
    expect(parse(text)).toEqual({
      top: 1,
      llm: { model: 'z', temperature: 0.25, 'my.profile': { model: 'b', stream: false } },
      agent: { manus: {}, swe: { max_steps: 9 } },
    });
    expect(text).toContain('[agent.swe]\nmax_steps = 9\n');
  });

  it('writes strings TOML can read back exactly', () => {
    const tricky = 'quote " backslash \\ newline \n tab \t unicode ✓';
    expect(parse(edit('', [{ table: ['llm'], key: 'model', value: tricky }]))).toEqual({
      llm: { model: tricky },
    });
  });

  // What the line editor this replaced refused (it fell back to rewriting the whole file).
  it('edits inside inline tables and arrays, keeping the rest of the line and the comments', () => {
    const text = `# my servers\n[mcp.servers.fs]\ncommand = "npx" # pinned\nargs = [\n  "-y", # yes\n  "server-filesystem",\n]\nenv = { A = "1", B = "2" } # keep\n`;
    const out = edit(text, [
      { table: ['mcp', 'servers', 'fs'], key: 'args', value: ['-y', 'server-filesystem', '/data'] },
      { table: ['mcp', 'servers', 'fs'], key: 'env', value: { A: '1', B: '3' } },
    ]);
    expect(out).toContain('# my servers');
    expect(out).toContain('command = "npx" # pinned');
    expect(out).toContain('"-y", # yes');
    expect(out).toMatch(/env = \{ A = "1", B = "3" \} # keep/);
    expect(parse(out)).toEqual({
      mcp: {
        servers: {
          fs: {
            command: 'npx',
            args: ['-y', 'server-filesystem', '/data'],
            env: { A: '1', B: '3' },
          },
        },
      },
    });
  });

  it('edits keys written as dotted keys in place', () => {
    const text = `[llm]\nmanus.model = "a"\n`;
    const out = edit(text, [{ table: ['llm', 'manus'], key: 'model', value: 'b' }]);
    expect(out).toBe(`[llm]\nmanus.model = "b"\n`);
  });

  it('adds a whole table (an MCP server with its env) as sections, and keeps CRLF files CRLF', () => {
    const text = '[llm]\r\nmodel = "a"\r\n';
    const out = edit(text, [
      {
        table: ['mcp', 'servers', 'fs'],
        key: 'env',
        value: { TOKEN: 'env:X' },
      },
      { table: ['mcp', 'servers', 'fs'], key: 'command', value: 'npx' },
    ]);
    expect(out).not.toMatch(/[^\r]\n/);
    expect(out).toContain('[mcp.servers.fs]');
    expect(out).toContain('command = "npx"');
    expect(parse(out)).toEqual({
      llm: { model: 'a' },
      mcp: { servers: { fs: { command: 'npx', env: { TOKEN: 'env:X' } } } },
    });
  });

  it('removing a key of a table that does not exist changes nothing', () => {
    expect(edit(TEXT, [{ table: ['nope'], key: 'x', value: undefined }])).toBe(TEXT);
  });
});
