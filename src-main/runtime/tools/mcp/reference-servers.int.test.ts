/**
 * The reference MCP servers from npm, as users run them (issue 16 item 4):
 * server-everything over stdio, SSE and streamable HTTP (tool calls, image results,
 * resources and resource links with text and binary content, progress that keeps a long
 * tool alive past its timeout, a task-based tool, and the cancellation a stop sends,
 * seen by the server), and server-filesystem and server-memory, which speak stdio only.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEventPayload, ToolProgressEvent } from '@shared/events';
import { Session } from '../../session/session';
import type { Tool, ToolContext } from '../tool';
import { loadMcpTools, type McpToolset } from './mcp-toolset';
import { startRecordingProxy, type RecordedMessage } from './testing/recording-proxy';
import {
  EVERYTHING,
  FILESYSTEM,
  MEMORY,
  startEverything,
  stdioSettings,
  type Transport,
} from './testing/reference-servers';
import type { McpServerSettings } from '../../config/schema';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

function context(
  events: RunEventPayload[] = [],
  signal = new AbortController().signal,
): ToolContext {
  return {
    signal,
    runId: 'run-ref',
    agent: 'mcp',
    step: 1,
    toolCallId: 'call_ref',
    emit: (e) => events.push(e),
  };
}

function pick(toolset: McpToolset, name: string): Tool {
  const tool = toolset.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no ${name} in ${toolset.tools.map((t) => t.name).join(', ')}`);
  return tool;
}

interface Connected {
  toolset: McpToolset;
  session: Session;
  /** the JSON-RPC messages that reached the server */
  received(): RecordedMessage[];
}

/** server-everything over a transport, behind a recorder, with `timeout` seconds per call. */
async function everything(transport: Transport, timeout = 30): Promise<Connected> {
  const workspace = mkdtempSync(join(tmpdir(), `wb-ref-${transport}-`));
  const session = new Session(`ref-${transport}-${cleanups.length}`, workspace);
  cleanups.push(() => session.close());
  let settings: McpServerSettings;
  let received: () => RecordedMessage[];
  if (transport === 'stdio') {
    const log = join(workspace, 'received.jsonl');
    settings = stdioSettings(EVERYTHING, ['stdio'], { timeout, recordTo: log });
    received = () => {
      try {
        return readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as RecordedMessage);
      } catch {
        return [];
      }
    };
  } else {
    const server = await startEverything(transport);
    const proxy = await startRecordingProxy(server.origin);
    cleanups.push(
      () => server.stop(),
      () => proxy.close(),
    );
    settings = {
      type: transport,
      url: proxy.url(transport === 'sse' ? '/sse' : '/mcp'),
      args: [],
      env: {},
      timeout,
    };
    received = () => proxy.messages;
  }
  const toolset = await loadMcpTools({ session, servers: { everything: settings } });
  expect(toolset.failures).toEqual([]);
  return { toolset, session, received };
}

describe.each<Transport>(['stdio', 'sse', 'http'])('server-everything over %s', (transport) => {
  it('calls tools, returns images, and reaches resources, links and blobs', async () => {
    const { toolset, session } = await everything(transport);
    const names = toolset.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp_everything_echo',
        'mcp_everything_get-tiny-image',
        'mcp_everything_list_resources',
        'mcp_everything_read_resource',
      ]),
    );
    expect(
      await pick(toolset, 'mcp_everything_echo').execute({ message: 'hi' }, context()),
    ).toEqual({ output: 'Echo: hi' });
    const sum = await pick(toolset, 'mcp_everything_get-sum').execute({ a: 2, b: 40 }, context());
    expect(sum.output).toMatch(/42/);

    const image = await pick(toolset, 'mcp_everything_get-tiny-image').execute({}, context());
    expect(image.image?.mimeType).toBe('image/png');
    expect(Buffer.from(image.image!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const listed = await pick(toolset, 'mcp_everything_list_resources').execute({}, context());
    expect(listed.output).toMatch(/demo:\/\/resource\/static\/document\/features\.md/);
    expect(listed.output).toMatch(/URI templates/);
    const doc = await pick(toolset, 'mcp_everything_read_resource').execute(
      { uri: 'demo://resource/static/document/features.md' },
      context(),
    );
    expect(doc.output).toContain('## Tools');

    const links = await pick(toolset, 'mcp_everything_get-resource-links').execute(
      { count: 2 },
      context(),
    );
    expect(links.output).toMatch(
      /Resource link: .*demo:\/\/resource\/dynamic\/\w+\/1.*read it with mcp_everything_read_resource/,
    );

    // a real binary blob: the server gzips data into a session resource and links it
    const text = 'workbench '.repeat(50);
    const gz = await pick(toolset, 'mcp_everything_gzip-file-as-resource').execute(
      { name: 'notes.txt', data: `data:text/plain;base64,${Buffer.from(text).toString('base64')}` },
      context(),
    );
    const uri = /demo:\/\/resource\/session\/[^\s;)]+/.exec(gz.output)?.[0];
    expect(uri, gz.output + (gz.error ?? '')).toBeDefined();
    const blob = await pick(toolset, 'mcp_everything_read_resource').execute(
      { uri: uri! },
      context(),
    );
    expect(blob.output).toMatch(
      /application\/gzip.*saved in the workspace as (mcp-resources\/\S+)/,
    );
    const saved = /saved in the workspace as (\S+)/.exec(blob.output)![1]!;
    expect(gunzipSync(readFileSync(join(session.workspaceDir, saved))).toString()).toBe(text);
  });

  it('reports progress, which keeps a tool longer than its timeout alive', async () => {
    const { toolset } = await everything(transport, 1);
    const events: RunEventPayload[] = [];
    const result = await pick(toolset, 'mcp_everything_trigger-long-running-operation').execute(
      { duration: 2.4, steps: 4 },
      context(events),
    );
    // timeout = 1 s, the operation takes 2.4 s: it used to fail as timed out
    expect(result.error).toBeUndefined();
    expect(result.output).toMatch(/Long running operation completed/);
    const progress = events.filter((e): e is ToolProgressEvent => e.type === 'tool.progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((p) => p.total === 4 && p.toolCallId === 'call_ref')).toBe(true);
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort());
  });

  it('a stop sends notifications/cancelled, and it reaches the server even if the session closes at once', async () => {
    const { toolset, session, received } = await everything(transport);
    const stop = new AbortController();
    const events: RunEventPayload[] = [];
    const running = pick(toolset, 'mcp_everything_trigger-long-running-operation').execute(
      { duration: 30, steps: 60 },
      context(events, stop.signal),
    );
    const started = Date.now();
    while (!events.some((e) => e.type === 'tool.progress') && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    stop.abort(new Error('Stopped by the user'));
    await expect(running).rejects.toThrow();
    await session.close(); // what the CLI does right after a stop (Ctrl-C)
    const call = received().find(
      (m) =>
        m.method === 'tools/call' &&
        (m.params as { name?: string } | undefined)?.name === 'trigger-long-running-operation',
    );
    expect(call).toBeDefined();
    const cancelled = received().find((m) => m.method === 'notifications/cancelled');
    expect(cancelled?.params).toMatchObject({ requestId: call!.id });
  });

  it('runs a tool that requires task-based execution, with its status as progress', async () => {
    const { toolset } = await everything(transport);
    const events: RunEventPayload[] = [];
    const result = await pick(toolset, 'mcp_everything_simulate-research-query').execute(
      { topic: 'python' },
      context(events),
    );
    expect(result.error).toBeUndefined();
    expect(result.output).toMatch(/# Research Report: python/);
    const messages = events.flatMap((e) => (e.type === 'tool.progress' ? [e.message] : []));
    expect(messages.join('\n')).toMatch(/Generating report/);
  });
});

describe('server-filesystem (stdio only)', () => {
  it('with roots offered it works in the session workspace, not the folder it was given', async () => {
    const given = mkdtempSync(join(tmpdir(), 'wb-fs-given-'));
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'wb-fs-ws-')));
    const session = new Session('ref-fs-roots', workspace);
    cleanups.push(() => session.close());
    const toolset = await loadMcpTools({
      session,
      servers: { fs: stdioSettings(FILESYSTEM, [given]) },
    });
    expect(toolset.failures).toEqual([]);
    const inWorkspace = await pick(toolset, 'mcp_fs_write_file').execute(
      { path: join(workspace, 'note.txt'), content: 'in the workspace' },
      context(),
    );
    expect(inWorkspace.error).toBeUndefined();
    expect(readFileSync(join(workspace, 'note.txt'), 'utf8')).toBe('in the workspace');
    const inGiven = await pick(toolset, 'mcp_fs_write_file').execute(
      { path: join(given, 'note.txt'), content: 'x' },
      context(),
    );
    expect(inGiven.error).toMatch(/outside allowed directories|Access denied/i);
  });

  it('with roots = false: writes, reads and lists files in the directory it was given', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wb-fs-root-'));
    const session = new Session('ref-fs', mkdtempSync(join(tmpdir(), 'wb-fs-ws-')));
    cleanups.push(() => session.close());
    const toolset = await loadMcpTools({
      session,
      servers: { fs: { ...stdioSettings(FILESYSTEM, [root]), roots: false } },
    });
    expect(toolset.failures).toEqual([]);
    const written = await pick(toolset, 'mcp_fs_write_file').execute(
      { path: join(root, 'hello.txt'), content: 'hello from the workbench' },
      context(),
    );
    expect(written.error).toBeUndefined();
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hello from the workbench');
    const read = await pick(toolset, 'mcp_fs_read_text_file').execute(
      { path: join(root, 'hello.txt') },
      context(),
    );
    // the text, then its structuredContent once as JSON (docs/mcp.md, structured output)
    expect(read.output).toMatch(/^hello from the workbench(\n|$)/);
    const listed = await pick(toolset, 'mcp_fs_list_directory').execute({ path: root }, context());
    expect(listed.output).toContain('[FILE] hello.txt');
    const outside = await pick(toolset, 'mcp_fs_read_text_file').execute(
      { path: '/etc/hostname' },
      context(),
    );
    expect(outside.error).toMatch(/outside allowed directories|Access denied/i);
  });
});

describe('server-memory (stdio only)', () => {
  it('keeps a knowledge graph across calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-memory-'));
    const session = new Session('ref-memory', dir);
    cleanups.push(() => session.close());
    const toolset = await loadMcpTools({
      session,
      servers: {
        memory: stdioSettings(MEMORY, [], { env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } }),
      },
    });
    const created = await pick(toolset, 'mcp_memory_create_entities').execute(
      {
        entities: [
          { name: 'Workbench', entityType: 'project', observations: ['runs OpenManus agents'] },
        ],
      },
      context(),
    );
    expect(created.error).toBeUndefined();
    const graph = await pick(toolset, 'mcp_memory_read_graph').execute({}, context());
    expect(graph.output).toContain('runs OpenManus agents');
    expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toContain('"Workbench"');
  });
});
