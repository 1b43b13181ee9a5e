/**
 * The Agents page's requests (issue 28 item 2), round-tripped over the real WebSocket
 * transport with the UI's own adapter, against real agent files in a fresh home.
 * contract.test.ts checks that every `agents:*` channel is marked here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import { stdioServerSettings } from '../runtime/tools/mcp/testing/test-mcp-process';
import { serve } from './testing/ws-contract-fixture';

/** (the coverage is asserted by contract.test.ts, which reads these calls) */
const mark = (channel: string) => channel;

const toml = (value: unknown) => JSON.stringify(value);

describe('contract over WebSocket: the Agents page', () => {
  it('lists, creates, duplicates, opens, saves versions, renames and deletes agents', async () => {
    const { api, home } = await serve('[llm.fast]\nmodel = "gpt-4o-mini"\n');
    const builtins = await api.listAgents({});
    expect(builtins.map((a) => `${a.name} ${a.source} v${a.version} ${a.carrier}`)).toEqual([
      'manus builtin v1 manus',
      'swe builtin v1 swe',
      'browser builtin v1 browser',
      'mcp builtin v1 mcp',
      'toolcall builtin v1 toolcall',
    ]);
    mark('agents:list');

    const manus = await api.getAgent({ name: 'manus' });
    expect(manus).toMatchObject({ isReadOnly: true, source: 'builtin', version: 1, issues: [] });
    expect(manus.definition?.tools).toContain('python_execute');
    mark('agents:get');
    // built-in agents are read-only: Duplicate makes the copy to edit
    await expect(
      api.saveAgent({ name: 'manus', definition: manus.definition! }),
    ).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('Duplicate') });

    const copy = await api.createAgent({ name: 'my-manus', from: 'manus' });
    expect(copy).toMatchObject({ isReadOnly: false, source: 'home', version: 1 });
    expect(copy.definition).toEqual({ ...manus.definition, name: 'my-manus' });
    const starter = await api.createAgent({ name: 'helper' });
    expect(starter.definition?.system_prompt).toContain('{{work_dir}}');
    await expect(api.createAgent({ name: 'helper' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(api.createAgent({ name: 'swe' })).rejects.toMatchObject({ code: 'conflict' });
    mark('agents:create');

    // every saved change is a version; the same text again is the same version
    const edited: AgentDefinitionData = {
      ...starter.definition!,
      system_prompt: 'You review {{work_dir}}.',
      tools: ['bash', 'terminate'],
      profile: 'fast',
    };
    const saved = await api.saveAgent({ name: 'helper', definition: edited });
    expect(saved.issues).toEqual([]);
    expect(saved.saved).toMatchObject({ version: 2, definition: edited });
    expect(saved.tokens.system_prompt).toBeGreaterThan(3);
    const again = await api.saveAgent({ name: 'helper', definition: edited });
    expect(again.saved?.version).toBe(2);
    expect(again.saved?.versions.map((v) => v.version)).toEqual([1, 2]);
    expect(readFileSync(join(home, 'agents', 'helper.toml'), 'utf8')).toContain('You review');
    mark('agents:save');

    const listed = await api.listAgents({});
    expect(listed.slice(5).map((a) => `${a.name} v${a.version} ${a.carrier}`)).toEqual([
      'helper v2 swe',
      'my-manus v1 manus',
    ]);

    const renamed = await api.renameAgent({ name: 'helper', to: 'reviewer' });
    expect(renamed).toMatchObject({ name: 'reviewer', version: 3 });
    expect(renamed.definition?.name).toBe('reviewer');
    expect(existsSync(join(home, 'agents', 'helper.toml'))).toBe(false);
    await expect(api.renameAgent({ name: 'reviewer', to: 'my-manus' })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(api.renameAgent({ name: 'manus', to: 'x' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    mark('agents:rename');

    expect(await api.deleteAgent({ name: 'reviewer' })).toEqual({ deleted: true });
    await expect(api.getAgent({ name: 'reviewer' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(api.deleteAgent({ name: 'reviewer' })).rejects.toMatchObject({
      code: 'not_found',
    });
    // the versions stay for the runs that used them
    expect(readdirSync(join(home, 'agents', '.versions', 'reviewer')).length).toBe(3);
    mark('agents:delete');
  });

  it("answers a definition's problems field by field, as data, and writes nothing", async () => {
    const { api, home } = await serve();
    const created = await api.createAgent({ name: 'mine' });
    const bad: AgentDefinitionData = {
      ...created.definition!,
      system_prompt: '   ',
      next_step_prompt: 'Go on in {{workdir}}',
      tools: ['bash', 'nope', 'files/read_*'],
      profile: 'missing',
    };
    const checked = await api.validateAgent({ definition: bad });
    const byPath = Object.fromEntries(checked.issues.map((i) => [i.path, i.message]));
    expect(Object.keys(byPath).sort()).toEqual([
      'next_step_prompt',
      'profile',
      'system_prompt',
      // the starter's terminate_tools name terminate, which the edited tools left out
      'terminate_tools',
      'tools',
    ]);
    expect(byPath.system_prompt).toMatch(/must not be empty/);
    expect(byPath.profile).toMatch(/no profile \[llm\.missing\]/);
    expect(checked.issues.filter((i) => i.path === 'tools').map((i) => i.message)).toEqual([
      expect.stringContaining('unknown tool "nope"'),
      expect.stringContaining('no MCP server "files"'),
    ]);
    mark('agents:validate');
    // the zod shape check is separate: a bad variable is a field problem, not bad input
    const next = await api.validateAgent({
      definition: { ...created.definition!, next_step_prompt: '{{ date }} {{when}}' },
    });
    expect(next.issues).toEqual([
      { path: 'next_step_prompt', message: expect.stringContaining('{{when}}') as string },
    ]);
    expect(next.tokens.next_step_prompt).toBeGreaterThan(0);

    const refused = await api.saveAgent({ name: 'mine', definition: bad });
    expect(refused.saved).toBeUndefined();
    expect(refused.issues.length).toBe(checked.issues.length);
    expect(readFileSync(join(home, 'agents', 'mine.toml'), 'utf8')).not.toContain('nope');
    const renamedInPlace = await api.saveAgent({
      name: 'mine',
      definition: { ...created.definition!, name: 'other' },
    });
    expect(renamedInPlace.issues).toEqual([
      { path: 'name', message: expect.stringContaining('Rename') as string },
    ]);
  });

  it('imports a file as a new agent and exports any agent as TOML', async () => {
    const { api } = await serve();
    const manus = await api.exportAgent({ ref: 'manus' });
    expect(manus.fileName).toBe('manus.toml');
    expect(manus.content).toContain('name = "manus"');
    mark('agents:export');
    // a built-in's text under its own name is refused: it names a built-in agent
    await expect(api.importAgent({ content: manus.content })).rejects.toMatchObject({
      code: 'conflict',
    });
    const imported = await api.importAgent({
      content: `# my notes\n${manus.content}`,
      name: 'imported',
    });
    expect(imported.issues).toEqual([]);
    expect(imported.saved).toMatchObject({ name: 'imported', version: 1 });
    expect(imported.saved?.text.startsWith('# my notes\n')).toBe(true);
    mark('agents:import');
    const broken = await api.importAgent({
      content: 'name = "x"\nsystem_prompt = "hi"\ntools = ["nope"]\n',
    });
    expect(broken.saved).toBeUndefined();
    expect(broken.issues).toEqual([
      { path: 'tools', message: expect.stringContaining('"nope"') as string, line: 3 },
      { path: 'terminate_tools', message: expect.stringContaining('"terminate"') as string },
    ]);
    const syntax = await api.importAgent({ content: 'name = \n' });
    expect(syntax.issues[0]).toMatchObject({ path: '(file)', line: 1 });
    expect((await api.exportAgent({ ref: 'imported@1' })).fileName).toBe('imported-v1.toml');
    await expect(api.exportAgent({ ref: 'imported@7' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it("lists the built-in tools and each MCP server's tools live, a failing server with its error", async () => {
    const settings = stdioServerSettings();
    const { api } = await serve(
      [
        '[mcp.servers.demo]',
        'type = "stdio"',
        `command = ${toml(settings.command)}`,
        `args = ${toml(settings.args)}`,
        '[mcp.servers.gone]',
        'type = "stdio"',
        'command = "/no/such/mcp-server"',
      ].join('\n'),
    );
    const catalog = await api.listAgentTools({});
    expect(catalog.builtin.map((t) => t.name)).toEqual([
      'python_execute',
      'bash',
      'str_replace_editor',
      'browser',
      'ask_human',
      'create_chat_completion',
      'terminate',
    ]);
    const bash = catalog.builtin.find((t) => t.name === 'bash')!;
    expect(bash.description).toMatch(/shell/i);
    expect(bash.parameters).toMatchObject({ type: 'object', properties: { command: {} } });
    const demo = catalog.servers.find((s) => s.server === 'demo')!;
    expect(demo.error).toBeUndefined();
    const add = demo.tools.find((t) => t.pattern === 'demo/add')!;
    expect(add).toMatchObject({ name: 'mcp_demo_add', parameters: { type: 'object' } });
    const gone = catalog.servers.find((s) => s.server === 'gone')!;
    expect(gone.tools).toEqual([]);
    expect(gone.error).toMatch(/Could not connect.*\[mcp\.servers\.gone\]/s);
    mark('agents:tools');
  }, 60_000);

  it('refuses a new run naming an agent that does not load, and records no run', async () => {
    const { api } = await serve();
    await expect(api.startRun({ task: 'x', agentRef: 'nobody' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('there is no agent "nobody"'),
    });
    await api.createAgent({ name: 'mine' });
    await expect(api.startRun({ task: 'x', agentRef: 'mine@9' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('mine has no version 9'),
    });
    await expect(api.startRun({ task: 'x', agentRef: 'mine.toml' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('file path'),
    });
    await expect(
      api.startRun({ task: 'x', agentRef: 'mine', flow: 'planning' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await api.listRuns({})).toEqual([]);
  });
});
