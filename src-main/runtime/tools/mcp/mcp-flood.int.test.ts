/**
 * A server that floods its client with notifications must not stall the runtime: the
 * call's timeout fires on time, the next call answers promptly, 50k tools/list_changed
 * cause O(1) tools/list requests, listeners do not pile up, and a closed session lets the
 * process exit. Against a real server process (testing/flood-mcp-server.ts).
 */
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import type { McpServerSettings } from '../../config/schema';
import { Session } from '../../session/session';
import type { ToolContext } from '../tool';
import { ToolRegistry } from '../tool-registry';
import { McpConnection, type ToolProgress } from './mcp-connection';
import { loadMcpTools } from './mcp-toolset';
import {
  floodStdioSettings,
  startFloodHttpServer,
  TSX_LOADER,
  type FloodHttpServer,
} from './testing/flood-mcp-process';

/** 100k notifications, half of them tools/list_changed, none a progress report. */
const FLOOD = { listChanged: 50_000, messages: 25_000, unknown: 25_000 };
/** The call's timeout, and how late it may fire on a busy machine. */
const TIMEOUT_S = 2;
const MARGIN_MS = 1_000;

const workspace = mkdtempSync(join(tmpdir(), 'wb-mcp-flood-'));
const sessions: Session[] = [];
const servers: FloodHttpServer[] = [];
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(() => {
  process.on('warning', onWarning);
});
afterAll(() => {
  process.off('warning', onWarning);
});
afterEach(async () => {
  await Promise.allSettled(sessions.splice(0).map((s) => s.close()));
  await Promise.allSettled(servers.splice(0).map((s) => s.kill()));
});

function context(
  events: RunEventPayload[] = [],
  signal = new AbortController().signal,
): ToolContext {
  return {
    signal,
    runId: 'r',
    agent: 'mcp',
    step: 1,
    toolCallId: 'c',
    emit: (e) => events.push(e),
  };
}

/** The flood server's tools in an agent's registry that follows its tool list. */
async function agentTools(name: string, settings: McpServerSettings) {
  const session = new Session(name, workspace);
  sessions.push(session);
  const toolset = await loadMcpTools({ session, servers: { f: settings } });
  const registry = new ToolRegistry(toolset.tools);
  toolset.follow(registry);
  const call = async (tool: string, args: Record<string, unknown> = {}, ctx = context()) => {
    const found = registry.get(`mcp_f_${tool}`);
    if (!found) throw new Error(`no ${tool} in ${registry.names.join(', ')}`);
    const started = performance.now();
    const result = await found.execute(args, ctx);
    return { ...result, ms: performance.now() - started };
  };
  const toolsListed = async () =>
    (JSON.parse((await call('stats')).output) as Record<string, number>)['tools/list'] ?? 0;
  return { registry, call, toolsListed };
}

/**
 * The longest the event loop went without running a timer while `work` ran: what a
 * flood does to every timeout of the process, not only the call's.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<[T, number]> {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    return [await work(), longest];
  } finally {
    clearInterval(tick);
  }
}

function noLeakWarnings(): void {
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
}

describe.each([
  ['stdio', async () => floodStdioSettings({ timeout: TIMEOUT_S })],
  [
    'streamable HTTP',
    async () => {
      const server = await startFloodHttpServer({ timeout: TIMEOUT_S });
      servers.push(server);
      return server.settings;
    },
  ],
] as const)('an MCP notification flood over %s', (transport, settings) => {
  it('does not delay the timeout of the call it precedes, nor the next call', async () => {
    const agent = await agentTools(`flood-timeout-${transport}`, await settings());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [flooded, stall] = await longestStall(() => agent.call('flood', FLOOD));
    const warned = warn.mock.calls.map((args) => String(args[0]));
    warn.mockRestore();
    console.log(
      `[flood ${transport}] timed out after ${Math.round(flooded.ms)} ms; longest stall ${Math.round(stall)} ms`,
    );
    expect(flooded.error).toMatch(/did not answer within 2 s while running tool "flood"/);
    expect(flooded.ms).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
    expect(stall).toBeLessThan(MARGIN_MS);

    const next = await agent.call('echo', { text: 'still here' });
    console.log(`[flood ${transport}] next call took ${Math.round(next.ms)} ms`);
    expect(next.output).toBe('still here');
    expect(next.ms).toBeLessThan(MARGIN_MS);

    // 50k tools/list_changed: the list is fetched again O(1) times, not once each.
    const listed = await agent.toolsListed();
    console.log(`[flood ${transport}] tools/list requested ${listed} times`);
    expect(listed).toBeLessThanOrEqual(3);
    noLeakWarnings();

    // the notifications beyond the budget were dropped, and that was said once
    const dropped = warned.filter((w) => /dropped/.test(w));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatch(/MCP server "f" .* \d+ were dropped while running tool "flood"/);
  });
});

describe('an MCP notification flood over stdio', () => {
  it('with progress reports is coalesced: the call answers promptly and the final tool list is taken in', async () => {
    const agent = await agentTools('flood-answer', floodStdioSettings({ timeout: 30 }));
    const events: RunEventPayload[] = [];
    const flooded = await agent.call(
      'flood',
      {
        listChanged: 50_000,
        progress: 20_000,
        messages: 15_000,
        unknown: 15_000,
        grow: true,
        answerAfterMs: 0,
      },
      context(events),
    );
    console.log(`[flood progress] answered after ${Math.round(flooded.ms)} ms`);
    expect(flooded.output).toBe('flood done');
    expect(flooded.ms).toBeLessThan(5_000);
    // the tool the server added before its flood is there when the call returns
    expect(agent.registry.has('mcp_f_grown')).toBe(true);
    const progress = events.filter((e) => e.type === 'tool.progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(flooded.ms / 250 + 2);
    expect(await agent.toolsListed()).toBeLessThanOrEqual(3);
    noLeakWarnings();
  });

  it("with progress reports runs the call's progress handler a few times, the last report included", async () => {
    const connection = new McpConnection('f', floodStdioSettings());
    try {
      const reports: ToolProgress[] = [];
      const { result } = await connection.callTool(
        'flood',
        { progress: 20_000, messages: 1_000, answerAfterMs: 0 },
        new AbortController().signal,
        { onProgress: (p) => reports.push(p) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'flood done' }]);
      console.log(`[flood progress] 20000 reports, handler ran ${reports.length} times`);
      expect(reports.length).toBeGreaterThan(0);
      expect(reports.length).toBeLessThan(200);
      expect(reports.at(-1)).toMatchObject({ progress: 20_000, total: 20_000 });
    } finally {
      await connection.close();
    }
  });

  it('many calls on one run signal leave no listener behind', async () => {
    const agent = await agentTools('flood-listeners', floodStdioSettings());
    const run = new AbortController();
    const before = getEventListeners(run.signal, 'abort').length;
    for (let i = 0; i < 15; i++) {
      const answer = await agent.call('echo', { text: `call ${i}` }, context([], run.signal));
      expect(answer.output).toBe(`call ${i}`);
    }
    expect(getEventListeners(run.signal, 'abort').length).toBe(before);
    noLeakWarnings();
  });

  it('a client process exits promptly once its session is closed after a flood', async () => {
    const script = fileURLToPath(new URL('./testing/flood-client.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', TSX_LOADER, script, workspace, String(TIMEOUT_S), JSON.stringify(FLOOD)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let closedAt = 0;
    // CLOSED comes with how long the close took: a close that waits on a backlog counts too
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (!closedAt && stdout.includes('CLOSED')) closedAt = performance.now();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const lingered = performance.now() - closedAt;
    const closing = Number(/CLOSED (\d+)/.exec(stdout)?.[1]);
    console.log(
      `[flood client] ${stdout.trim().split('\n').join(' ')}; exited ${Math.round(lingered)} ms after close`,
    );
    expect(code, stderr).toBe(0);
    expect(closedAt).toBeGreaterThan(0);
    const result = JSON.parse(/RESULT (.*)/.exec(stdout)![1]!) as {
      elapsedMs: number;
      error: string;
    };
    expect(result.error).toMatch(/did not answer within 2 s/);
    expect(result.elapsedMs).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
    expect(closing + lingered).toBeLessThan(1_000);
    expect(stderr).not.toMatch(/MaxListenersExceededWarning/);
  });
});
