/**
 * OpenManus habits on the command line (issue 16 item 6): a task read from a file
 * (`file:PATH`), and run_mcp.py's `--connection stdio|sse` and `--server-url`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../runtime/config/schema';
import {
  CLI_SERVER_NAME,
  mcpServerOverlay,
  OPENMANUS_DEFAULT_SSE_URL,
  splitCommandLine,
} from './mcp-server-options';
import { resolveTaskText } from './task-file';
import { UsageError } from './usage-error';

describe('file: tasks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wb-task-'));
  writeFileSync(join(dir, 'task.md'), '\n  Summarise the report.\nUse bullet points.\n');
  writeFileSync(join(dir, 'empty.md'), '  \n');
  writeFileSync(join(dir, 'binary.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));

  it('reads the task from the file, relative to the current folder', () => {
    expect(resolveTaskText('file:task.md', dir)).toBe('Summarise the report.\nUse bullet points.');
    expect(resolveTaskText(`file:${join(dir, 'task.md')}`, '/')).toMatch(/^Summarise/);
    expect(resolveTaskText('list the files', dir)).toBe('list the files');
  });

  it('says which file is missing, empty or not text', () => {
    expect(() => resolveTaskText('file:nope.md', dir)).toThrow(UsageError);
    expect(() => resolveTaskText('file:nope.md', dir)).toThrow(
      /cannot read the task file .*nope\.md/,
    );
    expect(() => resolveTaskText('file:empty.md', dir)).toThrow(/empty\.md is empty/);
    expect(() => resolveTaskText('file:binary.bin', dir)).toThrow(/not UTF-8 text/);
    expect(() => resolveTaskText('file:', dir)).toThrow(/needs a path/);
    expect(() => resolveTaskText('file:.', dir)).toThrow(/is not a file/);
  });
});

describe("run_mcp.py's --connection and --server-url", () => {
  const configured = configSchema.parse({
    mcp: {
      servers: {
        files: { type: 'stdio', command: 'npx', args: ['server-filesystem'] },
        web: { type: 'http', url: 'http://127.0.0.1:3001/mcp' },
      },
    },
  });

  it('--server-url picks the transport from the URL or --connection', () => {
    const sse = mcpServerOverlay({ agent: 'mcp', serverUrl: 'http://127.0.0.1:8000/sse' })!;
    expect(sse(configured).mcp.servers[CLI_SERVER_NAME]).toMatchObject({
      type: 'sse',
      url: 'http://127.0.0.1:8000/sse',
    });
    expect(sse(configured).mcp.agent_server).toBe(CLI_SERVER_NAME);
    const http = mcpServerOverlay({ agent: 'mcp', serverUrl: 'http://h:1/mcp' })!;
    expect(http(configured).mcp.servers[CLI_SERVER_NAME]!.type).toBe('http');
    const forced = mcpServerOverlay({
      agent: 'mcp',
      connection: 'sse',
      serverUrl: 'http://h:1/events',
    })!;
    expect(forced(configured).mcp.servers[CLI_SERVER_NAME]!.type).toBe('sse');
  });

  it('--connection alone picks the configured server of that type; sse falls back to the OpenManus default URL', () => {
    expect(
      mcpServerOverlay({ agent: 'mcp', connection: 'stdio' })!(configured).mcp.agent_server,
    ).toBe('files');
    expect(
      mcpServerOverlay({ agent: 'mcp', connection: 'http' })!(configured).mcp.agent_server,
    ).toBe('web');
    const sse = mcpServerOverlay({ agent: 'mcp', connection: 'sse' })!(configured);
    expect(sse.mcp.servers[CLI_SERVER_NAME]!.url).toBe(OPENMANUS_DEFAULT_SSE_URL);
    const none = configSchema.parse({});
    expect(() => mcpServerOverlay({ agent: 'mcp', connection: 'stdio' })!(none)).toThrow(
      /no \[mcp\.servers\] entry of type "stdio".*--server-command/,
    );
  });

  it('--server-command starts a stdio server from a quoted command line', () => {
    const overlay = mcpServerOverlay({
      agent: 'mcp',
      serverCommand: `npx -y @modelcontextprotocol/server-filesystem "/tmp/my files"`,
    })!;
    expect(overlay(configured).mcp.servers[CLI_SERVER_NAME]).toMatchObject({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/my files'],
    });
    expect(splitCommandLine(`a 'b c' d\\ e "f \\"g\\""`)).toEqual(['a', 'b c', 'd e', 'f "g"']);
  });

  it('refuses what cannot be meant, with the reason', () => {
    expect(mcpServerOverlay({ agent: 'manus' })).toBeUndefined();
    const bad: [Parameters<typeof mcpServerOverlay>[0], RegExp][] = [
      [{ agent: 'manus', serverUrl: 'http://h/sse' }, /are for --agent mcp/],
      [{ agent: 'mcp', connection: 'websocket' }, /must be stdio, sse or http/],
      [{ agent: 'mcp', connection: 'stdio', serverUrl: 'http://h/sse' }, /use --server-command/],
      [{ agent: 'mcp', connection: 'sse', serverCommand: 'x' }, /use --server-url/],
      [{ agent: 'mcp', serverUrl: 'ftp://h/sse' }, /must be an http\(s\) URL/],
      [{ agent: 'mcp', serverCommand: '"unclosed' }, /unclosed " quote/],
    ];
    for (const [flags, message] of bad) expect(() => mcpServerOverlay(flags)).toThrow(message);
  });
});
