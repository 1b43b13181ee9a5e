/**
 * The contract entries issue 11 added (pre-flight, sandbox images, section saves, MCP
 * test, folder picker), round-tripped over the real WebSocket transport with the UI's own
 * adapter. contract.test.ts checks that every channel is covered here or there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppApiError } from '@shared/ipc';
import { stdioServerSettings } from '../runtime/tools/mcp/testing/test-mcp-process';
import { EVERYTHING } from '../runtime/tools/mcp/testing/reference-servers';
import { serve } from './testing/ws-contract-fixture';

/** (the coverage is asserted by contract.test.ts, which reads these calls) */
const mark = (channel: string) => channel;

describe('contract over WebSocket: what a run needs besides its model', () => {
  it('run:preflight says the demo model plainly and refuses an mcp run with no server', async () => {
    const { api: demo } = await serve();
    // with no API key the mcp demo uses the built-in demo server: it can start, and says so
    const demoMcp = await demo.preflightRun({ agent: 'mcp' });
    expect(demoMcp.canStart).toBe(true);
    expect(demoMcp.checks.find((c) => c.id === 'mcp')).toMatchObject({
      status: 'info',
      message: expect.stringContaining('built-in MCP server "demo"'),
      fix: expect.stringContaining('Settings → MCP servers'),
    });
    // a real model (a key is set) needs a server of the user's
    const { api } = await serve('[llm]\napi_key = "sk-contract-test"\n');
    const toolcall = await demo.preflightRun({ agent: 'toolcall' });
    expect(toolcall.canStart).toBe(true);
    expect(toolcall.checks).toEqual([
      expect.objectContaining({
        id: 'model',
        status: 'info',
        message: expect.stringMatching(/demo model .*no API key/),
      }),
    ]);
    const mcp = await api.preflightRun({ agent: 'mcp' });
    expect(mcp.canStart).toBe(false);
    expect(mcp.checks.find((c) => c.id === 'mcp')).toMatchObject({
      status: 'error',
      fix: expect.stringContaining('Settings → MCP servers'),
    });
    // run:start refuses it the same way: nothing is started, nothing recorded
    const refused = await api
      .startRun({ task: 'use the tools', agent: 'mcp' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppApiError);
    expect((refused as AppApiError).code).toBe('conflict');
    expect((refused as AppApiError).message).toMatch(/needs an MCP server/);
    expect(await api.listRuns({})).toEqual([]);
    mark('run:preflight');
  });

  it('sandbox:images answers with the images, or with why it could not ask', async () => {
    const { api } = await serve();
    const view = await api.listSandboxImages({});
    expect(Array.isArray(view.images)).toBe(true);
    if (view.error === undefined) {
      for (const image of view.images) expect(image.tag).toMatch(/.+:.+/);
    } else expect(view.error).toMatch(/\S/);
    mark('sandbox:images');
  });

  it('sandbox:images names each engine of [sandbox] engines and why it does not answer', async () => {
    const { api } = await serve(
      '[sandbox]\nengines = ["unix:///tmp/wb-no-engine-a.sock", ' +
        '{ url = "unix:///tmp/wb-no-engine-b.sock", max_containers = 2 }]\n',
    );
    const view = await api.listSandboxImages({});
    expect(view.images).toEqual([]);
    expect(view.error).toMatch(/wb-no-engine-a\.sock/);
    expect(view.engines).toEqual([
      { endpoint: 'unix:///tmp/wb-no-engine-a.sock', ours: 0, error: expect.stringMatching(/\S/) },
      {
        endpoint: 'unix:///tmp/wb-no-engine-b.sock',
        ours: 0,
        maxContainers: 2,
        error: expect.stringMatching(/\S/),
      },
    ]);
  });

  it('config:save-sections edits [sandbox], [browser] and [mcp.servers.NAME], keeping comments', async () => {
    const { api, home } = await serve('# my settings\n[sandbox]\n# offline image\nimage = "a:1"\n');
    let view = await api.saveConfigSections({
      sandbox: { image: 'agent-workbench/sandbox:local', network_enabled: true },
      browser: { keep_screenshots: 1 },
      mcp: { servers: { files: { type: 'stdio', command: 'node', args: ['server.js'] } } },
    });
    expect(view.sections.sandbox.image).toEqual({
      value: 'agent-workbench/sandbox:local',
      source: 'file',
    });
    expect(view.sections.sandbox.memory_limit).toEqual({ value: '512m', source: 'default' });
    expect(view.sections.browser.keep_screenshots).toEqual({ value: 1, source: 'file' });
    expect(view.sections.mcp.servers).toEqual([
      expect.objectContaining({
        name: 'files',
        type: 'stdio',
        command: 'node',
        args: ['server.js'],
      }),
    ]);
    const text = readFileSync(join(home, 'config.toml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('# offline image');
    expect(text).toMatch(/\[mcp\.servers\.files\]/);
    view = await api.saveConfigSections({
      sandbox: { network_enabled: null },
      mcp: { servers: { files: null } },
    });
    expect(view.sections.sandbox.network_enabled.source).toBe('default');
    expect(view.sections.mcp.servers).toEqual([]);
    const bad = await api
      .saveConfigSections({ sandbox: { memory_limit: 'lots' } })
      .catch((e: unknown) => e);
    expect((bad as AppApiError).code).toBe('invalid_input');
    expect((bad as AppApiError).issues?.map((i) => i.path)).toContain('sandbox.memory_limit');
    mark('config:save-sections');
  });

  it('mcp:test lists the tools of a server as typed, or says why it cannot be reached', async () => {
    const { api } = await serve();
    const settings = stdioServerSettings();
    const ok = await api.testMcpServer({
      name: 'demo',
      server: { type: 'stdio', command: settings.command!, args: settings.args },
    });
    expect(ok.ok, ok.message).toBe(true);
    expect(ok.tools.map((t) => t.name)).toContain('add');
    const missing = await api.testMcpServer({
      name: 'gone',
      server: { type: 'stdio', command: '/no/such/mcp-server' },
    });
    expect(missing).toMatchObject({ ok: false, tools: [] });
    expect(missing.message).toMatch(/Could not connect/);
    mark('mcp:test');
  });

  it("mcp:prompts lists each configured server's prompts, or why one could not", async () => {
    const toml = (value: unknown) => JSON.stringify(value);
    const { api } = await serve(
      [
        '[mcp.servers.everything]',
        'type = "stdio"',
        `command = ${toml(process.execPath)}`,
        `args = ${toml([EVERYTHING, 'stdio'])}`,
        '[mcp.servers.gone]',
        'type = "stdio"',
        'command = "/no/such/mcp-server"',
        '[mcp.servers.silent]',
        'type = "stdio"',
        `command = ${toml(process.execPath)}`,
        `args = ["-e", "setInterval(() => {}, 1000)"]`,
        'timeout = 2',
      ].join('\n'),
    );
    const all = await api.listMcpPrompts({});
    expect(all.map((s) => s.server)).toEqual(['everything', 'gone', 'silent']);
    const everything = all[0]!;
    expect(everything.error).toBeUndefined();
    expect(everything.prompts.find((p) => p.name === 'args-prompt')).toMatchObject({
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    });
    expect(all[1]).toMatchObject({ server: 'gone', prompts: [] });
    expect(all[1]!.error).toMatch(/no\/such\/mcp-server|ENOENT|Could not connect/);
    // a server that never answers: an error of its own, within its timeout
    expect(all[2]).toMatchObject({ server: 'silent', prompts: [] });
    expect(all[2]!.error).toMatch(/"silent" did not list its prompts within 2 s/);
    // one server's prompts only
    const one = await api.listMcpPrompts({ server: 'everything' });
    expect(one.map((s) => s.server)).toEqual(['everything']);
    const unknown = await api.listMcpPrompts({ server: 'nope' }).catch((e: unknown) => e);
    expect((unknown as AppApiError).code).toBe('not_found');
    expect((unknown as AppApiError).message).toMatch(/configured: everything, gone, silent/);
    mark('mcp:prompts');
  }, 60_000);

  it("dialog:pick-folder is the desktop app's: browser mode says to type the path", async () => {
    const { api } = await serve();
    const error = await api.pickFolder({}).catch((e: unknown) => e);
    expect((error as AppApiError).code).toBe('unavailable');
    expect((error as AppApiError).message).toMatch(/type the folder path/);
    mark('dialog:pick-folder');
  });
});
