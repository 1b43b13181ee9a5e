/**
 * End to end, the way the app runs it: a runtime built from a config file naming a real
 * MCP server (the SDK-based test server, started over stdio, streamable HTTP or SSE), a
 * run of the `mcp` agent through the RunManager, and a scripted model that reads the
 * tool results it is sent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { McpServerSettings } from '../config/schema';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { TEST_PNG_BASE64 } from '../tools/mcp/testing/test-mcp-server';
import {
  startNetworkServer,
  stdioServerSettings,
  type RunningMcpServer,
} from '../tools/mcp/testing/test-mcp-process';

const runtimes: Runtime[] = [];
const servers: RunningMcpServer[] = [];

afterEach(async () => {
  await Promise.allSettled(runtimes.splice(0).map((r) => r.dispose()));
});
afterAll(async () => {
  await Promise.allSettled(servers.map((s) => s.kill()));
});

function runtimeFor(servers: Record<string, McpServerSettings>, llm: ScriptedLlm, extra = {}) {
  const home = mkdtempSync(join(tmpdir(), 'wb-mcp-agent-'));
  const configFile = join(home, 'config.toml');
  writeFileSync(
    configFile,
    stringify({
      llm: { model: 'scripted', api_key: 'sk-test-mcp' },
      mcp: { servers, ...extra },
    }),
  );
  const runtime = createRuntime({ home, configFile, createLlm: () => llm, env: {} });
  runtimes.push(runtime);
  return runtime;
}

async function run(runtime: Runtime, task: string, sessionId?: string) {
  const events: RunEvent[] = [];
  const off = runtime.runs.onEvent((e) => events.push(e));
  const handle = runtime.runs.start({ agent: 'mcp', task, ...(sessionId ? { sessionId } : {}) });
  const result = await handle.done;
  off();
  return { result, events: events.filter((e) => e.runId === handle.runId) };
}

/** Adds two numbers with the server, looks at its picture, then finishes. */
function arithmeticModel(server: string) {
  return new ScriptedLlm((request): ScriptedReply => {
    const calls = request.messages.filter((m) => m.role === 'tool').length;
    if (calls === 0) {
      return { toolCalls: [{ name: `mcp_${server}_add`, args: { a: 20, b: 22 } }] };
    }
    if (calls === 1) return { toolCalls: [{ name: `mcp_${server}_snapshot`, args: {} }] };
    const sum = /executed:\n(\d+)/.exec(request.messages.find((m) => m.role === 'tool')!.content!);
    const sawImage = request.messages.some((m) => m.role === 'user' && m.image);
    return {
      content: `The sum is ${sum?.[1]}; ${sawImage ? 'I saw the picture' : 'no picture'}.`,
      toolCalls: [{ name: 'terminate', args: { status: 'success' } }],
    };
  });
}

const transports = [
  { type: 'stdio' as const, settings: async () => stdioServerSettings() },
  {
    type: 'http' as const,
    settings: async () => {
      const server = await startNetworkServer('http');
      servers.push(server);
      return server.settings;
    },
  },
  {
    type: 'sse' as const,
    settings: async () => {
      const server = await startNetworkServer('sse');
      servers.push(server);
      return server.settings;
    },
  },
];

describe.each(transports)('mcp agent over $type', ({ settings }) => {
  it('calls a tool of a real MCP server, sees its image, then terminates', async () => {
    const llm = arithmeticModel('calc');
    const runtime = runtimeFor({ calc: await settings() }, llm);
    const { result, events } = await run(runtime, 'What is 20 + 22?');

    expect(result).toMatchObject({
      outcome: 'finished',
      state: 'FINISHED',
      terminateStatus: 'success',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    const finished = events.flatMap((e) => (e.type === 'tool.finished' ? [e] : []));
    expect(finished.map((e) => [e.name, e.ok])).toEqual([
      ['mcp_calc_add', true],
      ['mcp_calc_snapshot', true],
      ['terminate', true],
    ]);
    expect(finished[0]!.output).toBe('42');
    const final = llm.requests.at(-1)!;
    const picture = final.messages.find((m) => m.image);
    expect(picture).toMatchObject({
      role: 'user',
      image: { mimeType: 'image/png', data: TEST_PNG_BASE64 },
    });
    expect(final.messages.some((m) => m.role === 'tool' && m.image)).toBe(false);
    const answer = events.findLast(
      (e) => e.type === 'memory.appended' && e.message.role === 'assistant',
    );
    expect(answer?.type === 'memory.appended' && answer.message.content).toBe(
      'The sum is 42; I saw the picture.',
    );
    // The model was offered the server's tools under prefixed names, plus terminate.
    const offered = llm.requests[0]!.tools!.map((t) => t.function.name);
    expect(offered).toEqual(
      expect.arrayContaining(['mcp_calc_add', 'mcp_calc_dotted_name', 'terminate']),
    );
  });
});

describe('mcp agent', () => {
  it('fixes openmanus 7.2 item 7: the mcp agent terminates although its server tool names are prefixed', async () => {
    // The server has its own tool called "terminate"; the original's agent only ever saw
    // "mcp_<server>_terminate", compared it with "terminate" and could never finish.
    const llm = new ScriptedLlm((request): ScriptedReply => {
      const calls = request.messages.filter((m) => m.role === 'tool').length;
      if (calls === 0) {
        return { toolCalls: [{ name: 'mcp_calc_terminate', args: { status: 'success' } }] };
      }
      return { content: 'done', toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    });
    const runtime = runtimeFor({ calc: stdioServerSettings() }, llm);
    const { result, events } = await run(runtime, 'finish');
    expect(result).toMatchObject({ outcome: 'finished', steps: 2, terminateStatus: 'success' });
    const finished = events.flatMap((e) => (e.type === 'tool.finished' ? [e] : []));
    expect(finished.map((e) => e.name)).toEqual(['mcp_calc_terminate', 'terminate']);
    expect(finished[0]!.output).toBe('server terminate called with success');
  });

  it('fixes openmanus 7.2 item 15: no system message is added mid-conversation', async () => {
    const llm = arithmeticModel('calc');
    const runtime = runtimeFor({ calc: stdioServerSettings() }, llm);
    await run(runtime, 'What is 20 + 22?');
    expect(llm.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of llm.requests) {
      const systemAt = request.messages.flatMap((m, i) => (m.role === 'system' ? [i] : []));
      expect(systemAt).toEqual([0]);
    }
  });

  it('fixes openmanus 7.2 item 8: sessions never share an MCP connection, runs of one session do', async () => {
    const http = await startNetworkServer('http');
    servers.push(http);
    const cases = [
      { server: 'local', settings: stdioServerSettings(), tool: 'whoami' },
      { server: 'web', settings: http.settings, tool: 'counter' },
    ];
    for (const { server, settings, tool } of cases) {
      const llm = new ScriptedLlm((request): ScriptedReply =>
        request.messages.some((m) => m.role === 'tool')
          ? { content: 'ok', toolCalls: [{ name: 'terminate', args: { status: 'success' } }] }
          : { toolCalls: [{ name: `mcp_${server}_${tool}`, args: {} }] },
      );
      const runtime = runtimeFor({ [server]: settings }, llm);
      const output = async (sessionId: string) => {
        const { events } = await run(runtime, 'who are you?', sessionId);
        const first = events.find((e) => e.type === 'tool.finished');
        return first?.type === 'tool.finished' ? first.output : '';
      };
      // Two sessions at once, then session A again.
      const [a, b] = await Promise.all([output('session-a'), output('session-b')]);
      const again = await output('session-a');
      if (tool === 'whoami') {
        const pid = (text: string) => (JSON.parse(text) as { pid: number }).pid;
        expect(pid(a)).not.toBe(pid(b)); // one server process per session
        expect(pid(again)).toBe(pid(a)); // kept for the session's next run
      } else {
        const connection = (text: string) => /on connection (\d+)/.exec(text)?.[1];
        expect(a).toMatch(/^call 1 on connection \d+$/);
        expect(b).toMatch(/^call 1 on connection \d+$/);
        expect(connection(a)).not.toBe(connection(b));
        expect(again).toBe(`call 2 on connection ${connection(a)}`);
      }
    }
  });
});
