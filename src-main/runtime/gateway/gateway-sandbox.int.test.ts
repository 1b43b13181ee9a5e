/**
 * The gateway's sandbox MCP endpoint (issue 30 item 1, docs/mcp.md): an agent fronted by
 * the gateway (the `openai` JS client for its model calls, the MCP TypeScript SDK client
 * for its tools) names its run with `X-Workbench-Run` on both; the history shows one run
 * with its model steps and its sandbox calls, bash ran in the container (not on this host),
 * the run's steps have checkpoints and fork with their files, `[sandbox] max_containers`
 * holds between two agents, and the endpoint wants the gateway's token and loopback.
 */
import { existsSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunEvent } from '@shared/events';
import type { ScriptFunction } from '../llm/testing/scripted-openai-server';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { containersOf, docker as dockerCli } from '../sandbox/testing/sandbox-fixture';
import { SandboxRun } from '../sandbox-mcp/sandbox-run';
import { startGatewayFixture, waitFor, type GatewayFixture } from './testing/gateway-fixture';

const docker = await probeDocker();

/** turn 1: run a command; turn 2: done */
const script: ScriptFunction = (request) => {
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn === 1) return { toolCalls: [{ name: 'bash', arguments: { command: 'hostname' } }] };
  return { content: 'Done.' };
};

let fixture: GatewayFixture | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  if (fixture) {
    const sandboxes = fixture.runtime.services.sandboxes;
    await fixture.close();
    expect(await containersOf(sandboxes)).toEqual([]);
  }
  fixture = undefined;
});

async function sandboxClient(f: GatewayFixture, run: string): Promise<Client> {
  const client = new Client({ name: 'ts-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(f.gateway.sandboxMcpUrl), {
      requestInit: {
        headers: { authorization: `Bearer ${f.gateway.token}`, 'x-workbench-run': run },
      },
    }),
  );
  clients.push(client);
  return client;
}

function modelClient(f: GatewayFixture, run: string): OpenAI {
  return new OpenAI({
    baseURL: f.gateway.url,
    apiKey: f.gateway.token,
    defaultHeaders: { 'x-workbench-run': run },
  });
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { text?: string }[]).map((c) => c.text ?? '').join('');
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe.skipIf(!docker.available)('the sandbox MCP server on the model gateway', () => {
  it("records an agent's sandbox calls into its gateway run; bash runs in the container; its steps fork with their files", async () => {
    fixture = await startGatewayFixture(
      script,
      { idleMs: 60_000 },
      `\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
    );
    const f = fixture;
    expect(f.gateway.sandboxMcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/sandbox$/);
    const tools = await sandboxClient(f, 'agent-a');
    const listed = await tools.listTools();
    expect(listed.tools.map((t) => t.name)).toContain('bash');
    // listing opens no run: the agent's first model call does
    expect(f.runtime.runs.list()).toEqual([]);

    const llm = modelClient(f, 'agent-a');
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Where do commands run?' },
    ];
    const first = await llm.chat.completions.create({ model: 'workbench', messages });
    const asked = first.choices[0]!.message.tool_calls![0]!;
    const marker = `marker-${Date.now()}`;
    const ran = await tools.callTool({
      name: 'bash',
      arguments: { command: `echo ${marker} > /workspace/where.txt; cat /etc/hostname` },
    });
    const [runId] = f.runIds();
    expect((ran._meta as Record<string, unknown>)['workbench/runId']).toBe(runId);
    expect((ran._meta as Record<string, unknown>)['workbench/step']).toBe(1);
    // in the run's container, not on this host
    expect(text(ran)).not.toContain(hostname());
    const ids = await containersOf(f.runtime.services.sandboxes);
    expect(ids).toHaveLength(1);
    expect((await dockerCli('exec', ids[0]!, 'cat', '/workspace/where.txt')).trim()).toBe(marker);
    expect(existsSync('/workspace/where.txt')).toBe(false);

    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: asked.id,
      content: text(ran),
    });
    await tools.callTool({
      name: 'write_file',
      arguments: { path: '/workspace/where.txt', content: 'changed at step 2\n' },
    });
    const second = await llm.chat.completions.create({ model: 'workbench', messages });
    expect(second.choices[0]!.message.content).toBe('Done.');
    expect(f.runIds()).toEqual([runId]);

    await f.gateway.close();
    await waitFor(
      () => f.eventsOf(runId!).some((e) => e.type === 'run.finished'),
      'the gateway run to end',
    );
    const events = f.eventsOf(runId!);
    // one run: the agent's two model calls and its sandbox calls, under its agent
    expect(ofType(events, 'run.started')[0]!.agent).toBe('external: agent-a');
    expect(ofType(events, 'llm.responded')).toHaveLength(2);
    // step 1: the model's call (closed by the result the agent sent back), and the two
    // sandbox calls the agent made meanwhile, with their output
    const finished = ofType(events, 'tool.finished');
    expect(finished.map((e) => [e.step, e.name, e.ok, e.toolCallId === asked.id])).toEqual([
      [1, 'bash', true, false],
      [1, 'write_file', true, false],
      [1, 'bash', true, true],
    ]);
    expect(finished[0]!.output).toContain(text(ran).trim());
    // no sandbox run of its own was made
    expect(f.runtime.runs.list().map((s) => s.runId)).toEqual([runId]);

    // checkpoints at the run's step boundaries; step 1's files fork into a new session
    expect(f.runtime.runs.checkpointsOf(runId!).map((c) => c.step)).toEqual([1, 2]);
    const fork = await SandboxRun.start(f.runtime, {
      title: 'fork',
      fork: { runId: runId!, step: 1 },
    });
    const read = await fork.call('read_file', { path: '/workspace/where.txt' });
    expect(read.output).toBe('changed at step 2\n');
    await fork.close();
    expect(f.runtime.runs.get(fork.runId)?.forkOf).toEqual({ runId, step: 1 });
  });

  it('holds [sandbox] max_containers between two gateway agents; wants the token and loopback', async () => {
    fixture = await startGatewayFixture(
      script,
      { idleMs: 60_000 },
      `\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\nmax_containers = 1\n`,
    );
    const f = fixture;
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    };
    const post = (headers: Record<string, string>) =>
      fetch(f.gateway.sandboxMcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    expect((await post({})).status).toBe(401);
    // bound to loopback: this machine's other addresses do not answer
    const port = new URL(f.gateway.sandboxMcpUrl).port;
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (outside) {
      await expect(
        fetch(`http://${outside}:${port}/mcp/sandbox`, { method: 'POST' }),
      ).rejects.toThrow();
    }
    const wrong = await post({ authorization: 'Bearer wbg-not-the-gateway-token-at-all' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/Missing or wrong token/);

    const a = await sandboxClient(f, 'agent-a');
    const b = await sandboxClient(f, 'agent-b');
    const ask = { model: 'workbench', messages: [{ role: 'user' as const, content: 'go' }] };
    await modelClient(f, 'agent-a').chat.completions.create(ask);
    await modelClient(f, 'agent-b').chat.completions.create(ask);
    await a.callTool({ name: 'bash', arguments: { command: 'echo a' } });
    let isBDone = false;
    const bCall = b
      .callTool({ name: 'bash', arguments: { command: 'echo b' } }, undefined, { timeout: 120_000 })
      .then((r) => ((isBDone = true), r));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(isBDone).toBe(false);
    expect(await containersOf(f.runtime.services.sandboxes)).toHaveLength(1);
    // agent a's run ends (stopped from the UI): its container goes, b's call gets the slot
    const [runA, runB] = f.runIds();
    f.runtime.runs.stop(runA!);
    expect(text(await bCall)).toContain('b');
    expect((await containersOf(f.runtime.services.sandboxes)).length).toBeLessThanOrEqual(1);
    const bEvents = f.eventsOf(runB!);
    expect(
      ofType(bEvents, 'sandbox.changed').some(
        (e) => e.status === 'queued' && /max_containers/.test(e.progress ?? ''),
      ),
    ).toBe(true);
  });
});
