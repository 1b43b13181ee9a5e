/**
 * `[mcp.servers.X] headers`: imported from mcp.json (Claude Desktop, Cursor, VS Code
 * shapes) and saved from Settings with the values in the secret store, never in
 * config.toml; names the transport owns or that are not tokens refused with the key.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigService } from './config-service';
import { parseConfigText } from './load';
import { FileSecretStore } from './secrets';

function setup(text = '') {
  const dir = mkdtempSync(join(tmpdir(), 'wb-mcp-headers-'));
  const file = join(dir, 'config.toml');
  writeFileSync(file, text);
  const secrets = new FileSecretStore(join(dir, 'secrets.json'), undefined, () => {});
  const config = new ConfigService({ file, secrets, env: { MY_TOKEN: 'from-env-123' } });
  return { config, secrets, file, read: () => readFileSync(file, 'utf8') };
}

describe('mcp.json headers', () => {
  it('moves header values into the secret store, keeps ${env:VAR} as env:VAR', () => {
    const { config, secrets, read } = setup();
    const result = config.importOpenManus({
      fileName: 'mcp.json',
      content: JSON.stringify({
        mcpServers: {
          // Claude Desktop / Cursor: a literal value
          claude: { url: 'https://mcp.example.com/mcp', headers: { 'X-Api-Key': 'sk-literal-42' } },
          // Cursor / VS Code: read from the environment
          cursor: {
            type: 'sse',
            url: 'https://mcp.example.com/sse',
            headers: { Authorization: '${env:MY_TOKEN}' },
          },
          // VS Code: an input the editor prompts for, and a name the transport owns
          vscode: {
            type: 'http',
            url: 'https://mcp.example.com/mcp',
            headers: { 'X-Token': '${input:token}', 'Content-Type': 'text/plain', 'X-Ok': 'v' },
          },
        },
      }),
    });
    expect(result.isSaved).toBe(true);
    const text = read();
    expect(text).not.toContain('sk-literal-42');
    expect(text).not.toContain('from-env-123');
    const loaded = config.load();
    expect(loaded.mcp.servers['claude']!.headers).toEqual({
      'X-Api-Key': 'secret:mcp.claude.X-Api-Key',
    });
    expect(secrets.get('mcp.claude.X-Api-Key')).toBe('sk-literal-42');
    expect(loaded.mcp.servers['cursor']!.headers).toEqual({ Authorization: 'env:MY_TOKEN' });
    expect(loaded.mcp.servers['vscode']!.headers).toEqual({ 'X-Ok': 'secret:mcp.vscode.X-Ok' });
    const ignored = result.ignored.map((i) => i.path).sort();
    expect(ignored).toEqual([
      'mcpServers.vscode.headers.Content-Type',
      'mcpServers.vscode.headers.X-Token',
    ]);
    expect(result.ignored.find((i) => i.path.endsWith('Content-Type'))?.reason).toMatch(
      /set by the MCP transport/,
    );
    // the values are redacted from events like API keys
    expect(config.secretValues()).toEqual(
      expect.arrayContaining(['sk-literal-42', 'from-env-123']),
    );
    // the UI learns only that they are set
    const view = config.view().sections.mcp.servers.find((s) => s.name === 'cursor');
    expect(view?.headers).toEqual([{ name: 'Authorization', isSet: true, env: 'MY_TOKEN' }]);
    expect(JSON.stringify(config.view())).not.toContain('sk-literal-42');
  });
});

describe('[mcp.servers.X] headers in config.toml', () => {
  it('refuses header names that are not tokens or that the transport owns, naming the key', () => {
    const base = '[mcp.servers.api]\ntype = "http"\nurl = "http://127.0.0.1:1/mcp"\n';
    expect(() =>
      parseConfigText(`${base}headers = { "Mcp-Session-Id" = "env:X" }\n`, 'c.toml'),
    ).toThrow(/mcp\.servers\.api\.headers\.Mcp-Session-Id.*set by the MCP transport/s);
    expect(() => parseConfigText(`${base}headers = { "X Bad" = "env:X" }\n`, 'c.toml')).toThrow(
      /headers\.X Bad.*not a valid HTTP header name/s,
    );
    expect(() =>
      parseConfigText(
        '[mcp.servers.p]\ntype = "stdio"\ncommand = "x"\nheaders = { "X-A" = "env:X" }\n',
        'c.toml',
      ),
    ).toThrow(/stdio server has no HTTP headers/);
  });

  it('saves a value typed in Settings to the secret store, keeps it on the next save', () => {
    const { config, secrets, read } = setup();
    config.saveSections({
      mcp: {
        servers: {
          api: {
            type: 'http',
            url: 'http://127.0.0.1:1/mcp',
            headers: { 'X-Api-Key': { action: 'set', value: 'typed-secret-9' } },
          },
        },
      },
    });
    expect(read()).not.toContain('typed-secret-9');
    expect(secrets.get('mcp.api.X-Api-Key')).toBe('typed-secret-9');
    config.saveSections({
      mcp: {
        servers: {
          api: {
            type: 'http',
            url: 'http://127.0.0.1:2/mcp',
            headers: { 'X-Api-Key': { action: 'keep' } },
          },
        },
      },
    });
    expect(config.load().mcp.servers['api']!.headers).toEqual({
      'X-Api-Key': 'secret:mcp.api.X-Api-Key',
    });
    expect(secrets.get('mcp.api.X-Api-Key')).toBe('typed-secret-9');
    expect(() =>
      config.saveSections({
        mcp: {
          servers: {
            api: {
              type: 'http',
              url: 'http://x/mcp',
              headers: { Host: { action: 'set', value: 'v' } },
            },
          },
        },
      }),
    ).toThrow(/mcp\.servers\.api\.headers\.Host: "Host" is set by the MCP transport/);
    // removing the header removes its secret
    config.saveSections({ mcp: { servers: { api: { type: 'http', url: 'http://x/mcp' } } } });
    expect(secrets.get('mcp.api.X-Api-Key')).toBeUndefined();
  });

  it('a save from Settings keeps the keys its form does not edit (sampling, roots, log level, OAuth)', () => {
    const { config } = setup(
      '[mcp.servers.api]\ntype = "http"\nurl = "http://127.0.0.1:1/mcp"\nsampling = false\nsampling_profile = "fast"\nroots = false\nlog_level = "debug"\noauth_client_id = "cid-1"\noauth_scope = "read"\n\n[llm.fast]\nmodel = "m"\n',
    );
    config.saveSections({
      mcp: { servers: { api: { type: 'http', url: 'http://127.0.0.1:2/mcp', timeout: 30 } } },
    });
    expect(config.load().mcp.servers['api']).toMatchObject({
      url: 'http://127.0.0.1:2/mcp',
      timeout: 30,
      sampling: false,
      sampling_profile: 'fast',
      roots: false,
      log_level: 'debug',
      oauth_client_id: 'cid-1',
      oauth_scope: 'read',
    });
  });
});
