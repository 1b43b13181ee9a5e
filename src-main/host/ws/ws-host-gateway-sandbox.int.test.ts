/**
 * `serve`'s /mcp/sandbox and the app's gateway (the Gateway panel): while the gateway is
 * on, a sandbox session naming the run its agent names on the gateway records into that
 * gateway run, as on the gateway's own endpoint (docs/mcp.md, "Naming the run").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../../runtime/sandbox/testing/docker-env';
import { gatewayOf } from '../gateway-handlers';
import { startWsHost, type WsHost } from './ws-host';

const docker = await probeDocker();
let runtime: Runtime | undefined;
let host: WsHost | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await host?.close();
  await runtime?.dispose();
  client = host = runtime = undefined;
});

describe.skipIf(!docker.available)("serve's sandbox MCP endpoint and the app's gateway", () => {
  it('records a session naming a gateway run into that run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-serve-gw-sandbox-'));
    // no API key: the gateway forwards to the built-in demo model
    writeFileSync(join(home, 'config.toml'), `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`);
    runtime = createRuntime({ home, env: {} });
    host = await startWsHost({
      runtime,
      context: { dockerProbe: async () => ({ isAvailable: true }) },
    });
    const gateway = await gatewayOf(runtime).set({ isOn: true });
    const chat = await fetch(`${gateway.url}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${gateway.token}`,
        'x-workbench-run': 'panel-agent',
      },
      body: JSON.stringify({ model: 'workbench', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    const [gatewayRun] = runtime.runs.list().filter((s) => s.agent === 'external: panel-agent');
    expect(gatewayRun).toBeDefined();

    client = new Client({ name: 'ts-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(host.sandboxMcpUrl!), {
        requestInit: {
          headers: { authorization: `Bearer ${host.token}`, 'x-workbench-run': 'panel-agent' },
        },
      }),
    );
    const ran = await client.callTool({ name: 'bash', arguments: { command: 'echo in-sandbox' } });
    expect((ran.content as { text: string }[])[0]!.text).toContain('in-sandbox');
    expect((ran._meta as Record<string, unknown>)['workbench/runId']).toBe(gatewayRun!.runId);
    // no sandbox run of its own
    expect(runtime.runs.list().filter((s) => s.agent === 'sandbox')).toEqual([]);
    await gatewayOf(runtime).set({ isOn: false });
  });
});
