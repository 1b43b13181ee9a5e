/**
 * What OpenManus users bring (issue 16 items 1 and 6): Azure base URLs with the
 * deployment in them, `[agent] max_steps`, `[llm.vision]`, `api_type = "aws"`, and
 * `config/mcp.json` in OpenManus's and other clients' spellings.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitAzureBaseUrl } from './azure-url';
import { ConfigService } from './config-service';
import { parseConfigText } from './load';
import { convertOpenManusConfig } from './openmanus-import';
import { convertMcpServersFile } from './openmanus-mcp-import';
import { resolveAgentSettings } from './resolve';
import { FileSecretStore } from './secrets';

function service(text?: string): ConfigService {
  const dir = mkdtempSync(join(tmpdir(), 'wb-habits-'));
  const file = join(dir, 'config.toml');
  if (text !== undefined) writeFileSync(file, text);
  const secrets = new FileSecretStore(join(dir, 'secrets.json'), undefined, () => {});
  return new ConfigService({ file, secrets, env: {} });
}

describe('Azure base URLs', () => {
  it("splits OpenManus's ENDPOINT/openai/deployments/NAME, and leaves an endpoint alone", () => {
    expect(splitAzureBaseUrl('https://r.openai.azure.com/openai/deployments/gpt4o/')).toEqual({
      endpoint: 'https://r.openai.azure.com',
      deployment: 'gpt4o',
    });
    expect(splitAzureBaseUrl('https://r.openai.azure.com/openai')).toEqual({
      endpoint: 'https://r.openai.azure.com',
    });
    expect(splitAzureBaseUrl('https://r.openai.azure.com/')).toEqual({
      endpoint: 'https://r.openai.azure.com',
    });
  });

  it('imports an Azure [llm] and its [llm.vision] (Azure by inheritance) as endpoint + deployment', () => {
    const out = convertOpenManusConfig({
      llm: {
        api_type: 'azure',
        model: 'gpt-4o-mini',
        base_url: 'https://r.openai.azure.com/openai/deployments/mini',
        api_key: 'k',
        api_version: '2024-08-01-preview',
        vision: { model: 'gpt-4o', base_url: 'https://r.openai.azure.com/openai/deployments/big' },
      },
    });
    expect(out.llm).toMatchObject({
      base_url: 'https://r.openai.azure.com',
      model: 'mini',
      api_version: '2024-08-01-preview',
      vision: { base_url: 'https://r.openai.azure.com', model: 'big' },
    });
    expect(out.imported.join('\n')).toMatch(/model name "gpt-4o-mini" is not needed/);
  });
});

describe('[agent] settings of every agent', () => {
  it('applies [agent] max_steps to every agent, under [agent.NAME], and names the source', () => {
    const config = parseConfigText(
      '[agent]\nmax_steps = 7\nmax_observe = 5000\n[agent.swe]\nmax_steps = 3\n',
      'config.toml',
    );
    expect(resolveAgentSettings(config, 'manus')).toMatchObject({ maxSteps: 7, maxObserve: 5000 });
    expect(resolveAgentSettings(config, 'swe')).toMatchObject({ maxSteps: 3, maxObserve: 5000 });
    expect(resolveAgentSettings(config, 'toolcall').maxSteps).toBe(7);
    const view = service('[agent]\nmax_steps = 7\n').view();
    expect(view.agents.browser.settings.max_steps).toEqual({
      value: 7,
      source: { kind: 'agents' },
    });
  });

  it('reports a wrong [agent] value by key and line', () => {
    expect(() => parseConfigText('[agent]\nmax_steps = "many"\n', 'config.toml')).toThrow(
      /agent\.max_steps \(line 2\)/,
    );
  });

  it('imports [agent] max_steps from an OpenManus config instead of calling it unknown', () => {
    const config = service();
    const result = config.importOpenManus({
      content: '[llm]\nmodel = "m"\n[agent]\nmax_steps = 12\n',
      fileName: 'config.toml',
    });
    expect(result.imported).toContain('agent.max_steps');
    expect(result.ignored).toEqual([]);
    expect(resolveAgentSettings(config.load(), 'manus').maxSteps).toBe(12);
  });
});

describe('api_type = "aws"', () => {
  it('refuses the import and writes nothing', () => {
    const config = service('[llm]\nmodel = "kept"\n');
    expect(() =>
      config.importOpenManus({
        content: '[llm]\napi_type = "aws"\nmodel = "us.anthropic.claude"\napi_key = "bear"\n',
        fileName: 'om.toml',
      }),
    ).toThrow(/om\.toml: \[llm\] api_type = "aws" \(Amazon Bedrock\) is not supported/);
    expect(config.load().llm.default.model).toBe('kept');
  });
});

describe('config/mcp.json', () => {
  it('converts every spelling of a server, and leaves out what cannot be expressed', () => {
    const out = convertMcpServersFile({
      mcpServers: {
        server1: { type: 'sse', url: 'http://localhost:8000/sse' },
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        web: { type: 'streamable-http', url: 'http://127.0.0.1:3001/mcp' },
        guessed: { url: 'http://127.0.0.1:3002/sse' },
        off: { command: 'x', disabled: true },
        broken: { type: 'websocket', url: 'ws://x' },
        nothing: {},
      },
    });
    expect(out.servers).toEqual({
      server1: { type: 'sse', url: 'http://localhost:8000/sse' },
      files: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      },
      web: { type: 'http', url: 'http://127.0.0.1:3001/mcp' },
      guessed: { type: 'sse', url: 'http://127.0.0.1:3002/sse' },
    });
    expect(out.ignored.map((i) => i.path).sort()).toEqual([
      'mcpServers.broken',
      'mcpServers.nothing',
      'mcpServers.off',
    ]);
  });

  it('adds the servers to config.toml, keeping everything else', () => {
    const config = service(
      '[llm]\nmodel = "mine"\n[mcp.servers.old]\ntype = "http"\nurl = "http://127.0.0.1:1/mcp"\n',
    );
    const result = config.importOpenManus({
      content: JSON.stringify({
        mcpServers: { server1: { type: 'sse', url: 'http://h:8000/sse' } },
      }),
      fileName: 'mcp.json',
    });
    expect(result.isSaved).toBe(true);
    const loaded = config.load();
    expect(loaded.llm.default.model).toBe('mine');
    expect(Object.keys(loaded.mcp.servers).sort()).toEqual(['old', 'server1']);
    expect(() =>
      config.importOpenManus({ content: '{"servers": {}}', fileName: 'x.json' }),
    ).toThrow(/needs an "mcpServers" object/);
  });
});
