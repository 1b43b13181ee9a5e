/**
 * OpenManus's own example config files (src-main/cli/testing/openmanus, copied unchanged)
 * imported with the built `workbench config import-openmanus`, then `workbench config
 * test` against a local OpenAI-compatible server (the project's scripted server): base,
 * Azure, Ollama, AWS Bedrock and config/mcp.json (issue 16 items 1 and 6).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
} from '../runtime/llm/testing/scripted-openai-server';
import { reply } from '../runtime/llm/testing/scripted-replies';
import {
  startNetworkServer,
  type RunningMcpServer,
} from '../runtime/tools/mcp/testing/test-mcp-process';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = fileURLToPath(new URL('./testing/openmanus/', import.meta.url));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function workbench(home: string, args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
      env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_DEMO_DELAY_MS: '5' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** An example file with its addresses pointed at this machine, written to a fresh folder. */
function example(name: string, replace: [string, string][]): { home: string; file: string } {
  let text = readFileSync(join(examples, name), 'utf8');
  for (const [from, to] of replace) {
    expect(text, `${name} has ${from}`).toContain(from);
    text = text.split(from).join(to);
  }
  const home = mkdtempSync(join(tmpdir(), 'wb-openmanus-'));
  const file = join(home, name);
  writeFileSync(file, text);
  return { home, file };
}

let server: ScriptedOpenAiServer;
let baseUrl: string;
beforeAll(async () => {
  ({ server, baseUrl } = await startScriptedServer(() => reply.text('ok')));
});
afterAll(async () => {
  await server.close();
});

describe('OpenManus example configs: import, then config test against a local server', () => {
  it('config.example.toml (Anthropic through the OpenAI-compatible path, [llm.vision])', async () => {
    const { home, file } = example('config.example.toml', [
      ['https://api.anthropic.com/v1/', `${baseUrl}/`],
      ['"YOUR_API_KEY"', '"sk-ant-example-0001"'],
    ]);
    const imported = await workbench(home, ['config', 'import-openmanus', file]);
    expect(imported.code, imported.stderr).toBe(0);
    // there was no config before: no backup is claimed (it used to say a .bak was kept)
    expect(imported.stderr).toMatch(/a new file: there was no config to back up/);
    expect(existsSync(join(home, 'config.toml.bak'))).toBe(false);
    expect(imported.stdout).toMatch(/imported\s+llm\.vision \(as the profile of the browser agent/);
    expect(imported.stdout).toMatch(/ignored\s+llm\.max_input_tokens|ignored\s+mcp:/);

    const tested = await workbench(home, ['config', 'test']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^ok: Connected: claude-3-7-sonnet-20250219 answered/);
    const vision = await workbench(home, ['config', 'test', '--agent', 'browser']);
    expect(vision.code, vision.stdout).toBe(0);
    const shown = await workbench(home, ['config', 'show', '--agent', 'browser']);
    expect(shown.stdout).toContain('[browser] uses profile [llm.vision]');
    // a profile no agent uses is shown with how to use it (OpenManus ignored [llm.vision])
    writeFileSync(
      join(home, 'config.toml'),
      `${readFileSync(join(home, 'config.toml'), 'utf8')}\n[llm.spare]\nmodel = "spare-model"\n`,
    );
    const all = await workbench(home, ['config', 'show']);
    expect(all.stdout).toContain(
      '[llm.spare] is used by no agent: choose it with [agent.NAME] llm = "spare"',
    );
    expect(all.stdout).not.toContain('[llm.vision] is used by no agent');

    // a second import keeps the first result as the backup, and says so
    const again = await workbench(home, ['config', 'import-openmanus', file]);
    expect(again.stderr).toContain(`kept as ${join(home, 'config.toml.bak')}`);
    expect(existsSync(join(home, 'config.toml.bak'))).toBe(true);
  });

  it('config.example-model-azure.toml: ENDPOINT/openai/deployments/NAME becomes endpoint + deployment', async () => {
    const origin = new URL(baseUrl).origin;
    const { home, file } = example('config.example-model-azure.toml', [
      ["{YOUR_AZURE_ENDPOINT.rstrip('/')}", origin],
      ['{AZURE_DEPLOYMENT_ID}', 'prod-4o'],
      ['"YOUR_API_KEY"', '"azure-key-0001"'],
    ]);
    const imported = await workbench(home, ['config', 'import-openmanus', file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`as the Azure endpoint ${origin}`);
    expect(imported.stdout).toMatch(/ignored\s+llm\.api_version: "AZURE API VERSION" is not/);
    const written = readFileSync(join(home, 'config.toml'), 'utf8');
    expect(written).toContain(`base_url = "${origin}"`);
    expect(written).toContain('model = "prod-4o"');

    server.reset();
    const tested = await workbench(home, ['config', 'test']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/openai/deployments/prod-4o/chat/completions');
    expect(sent.query['api-version']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(sent.headers['api-key']).toBe('azure-key-0001');
  });

  it('the examples as shipped: a placeholder key is not stored, the Azure placeholder URL refuses the import', async () => {
    const { home, file } = example('config.example.toml', [
      ['https://api.anthropic.com/v1/', `${baseUrl}/`],
    ]);
    const imported = await workbench(home, ['config', 'import-openmanus', file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(
      /ignored\s+llm\.api_key: "YOUR_API_KEY" is the example's placeholder, not a key/,
    );
    expect(existsSync(join(home, 'secrets.json'))).toBe(false);
    const shown = await workbench(home, ['config', 'show']);
    expect(shown.stdout).toMatch(/runs use: the built-in demo model \(no API key set\)/);
    expect(shown.stdout).not.toMatch(/runs use: claude-3-7-sonnet/);

    const azure = example('config.example-model-azure.toml', []);
    const refused = await workbench(azure.home, ['config', 'import-openmanus', azure.file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /\[llm(\.vision)?\] base_url = .* is still the example's placeholder/,
    );
    expect(existsSync(join(azure.home, 'config.toml'))).toBe(false);
  });

  it("a hand-written config in OpenManus's Azure form works too", async () => {
    const origin = new URL(baseUrl).origin;
    const home = mkdtempSync(join(tmpdir(), 'wb-openmanus-'));
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\napi_type = "azure"\nmodel = "gpt-4o-mini"\nbase_url = "${origin}/openai/deployments/hand-made"\napi_key = "sk-azure-hand-0000"\napi_version = "2024-08-01-preview"\n`,
    );
    server.reset();
    const tested = await workbench(home, ['config', 'test']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(server.requests[0]!.path).toBe('/openai/deployments/hand-made/chat/completions');
  });

  it('config.example-model-ollama.toml', async () => {
    const { home, file } = example('config.example-model-ollama.toml', [
      ['http://localhost:11434/v1', baseUrl],
    ]);
    const imported = await workbench(home, ['config', 'import-openmanus', file]);
    expect(imported.code, imported.stderr).toBe(0);
    server.reset();
    const tested = await workbench(home, ['config', 'test']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(server.requests[0]!.model).toBe('llama3.2');
  });

  it('the Bedrock block (api_type = "aws") is refused with what to do, and nothing is written', async () => {
    const { home, file } = example('config.example-aws.toml', []);
    const imported = await workbench(home, ['config', 'import-openmanus', file]);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(/api_type = "aws" \(Amazon Bedrock\) is not supported/);
    expect(imported.stderr).toMatch(/OpenAI-compatible gateway/);
    expect(existsSync(join(home, 'config.toml'))).toBe(false);
    // written by hand into config.toml, it is refused when the config loads, by line
    writeFileSync(join(home, 'config.toml'), readFileSync(file, 'utf8'));
    const tested = await workbench(home, ['config', 'test']);
    expect(tested.code).toBe(2);
    expect(tested.stderr).toMatch(/llm\.api_type \(line 3\): "aws" \(Amazon Bedrock\)/);
  });

  describe('mcp.example.json', () => {
    let mcp: RunningMcpServer;
    beforeAll(async () => {
      mcp = await startNetworkServer('sse');
    });
    afterAll(async () => {
      await mcp.kill();
    });

    it('becomes [mcp.servers.server1] and the mcp agent runs its tools', async () => {
      const { home, file } = example('mcp.example.json', [['http://localhost:8000/sse', mcp.url]]);
      const scenario = join(home, 'scenario.json');
      writeFileSync(
        scenario,
        JSON.stringify({
          scenarios: [
            {
              name: 'add',
              turns: [
                { toolCalls: [{ name: 'mcp_server1_add', arguments: { a: 2, b: 3 } }] },
                {
                  content: 'It is 5.',
                  toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
                },
              ],
            },
          ],
        }),
      );
      writeFileSync(
        join(home, 'config.toml'),
        `[llm]\napi_type = "scripted"\nscenario = "scenario.json"\n`,
      );
      const imported = await workbench(home, ['config', 'import-openmanus', file]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('mcpServers.server1 (as [mcp.servers.server1], sse)');
      // and says which agents get its tools (issue 25 item 11)
      expect(imported.stderr).toContain(
        "[mcp.servers.server1]: Manus (and PlanningFlow's Manus steps) will get all its tools in every run, named mcp_server1_TOOL; the mcp agent will use all its tools",
      );
      // the scripted profile stays: an mcp.json import only adds servers
      expect(readFileSync(join(home, 'config.toml'), 'utf8')).toContain('api_type = "scripted"');

      const run = await workbench(home, ['run', '--agent', 'mcp', '--jsonl', 'add 2 and 3']);
      expect(run.code, run.stderr).toBe(0);
      const events = run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as RunEvent);
      const added = events.find((e) => e.type === 'tool.finished' && e.name === 'mcp_server1_add');
      expect(added).toMatchObject({ ok: true, output: '5' });
    });
  });
});
