import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigService } from './config-service';
import { ConfigError } from './load';
import { FileSecretStore } from './secrets';

function service(text?: string, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'wb-config-'));
  const file = join(dir, 'config.toml');
  if (text !== undefined) writeFileSync(file, text);
  const secrets = new FileSecretStore(join(dir, 'secrets.json'), undefined, () => {});
  return { config: new ConfigService({ file, secrets, env }), file, dir, secrets };
}

const CONFIG = `# my models
[llm]
model = "gpt-4o"      # the default
api_key = "env:OPENAI_API_KEY"
temperature = 0.5

[llm.fast]
model = "gpt-4o-mini"

[agent.swe]
llm = "fast"
max_steps = 7

[agent.toolcall]
llm = "fast"
`;

describe('ConfigService view', () => {
  it('gives each agent its effective values with where each one comes from', () => {
    const { config } = service(CONFIG, { OPENAI_API_KEY: 'sk-from-env-123' });
    const view = config.view();
    const swe = view.agents.swe;
    expect(swe.profile).toBe('fast');
    expect(swe.profileSharedWith).toEqual(['toolcall']);
    expect(swe.llm.model).toEqual({
      value: 'gpt-4o-mini',
      source: { kind: 'profile', profile: 'fast' },
    });
    expect(swe.llm.temperature).toEqual({ value: 0.5, source: { kind: 'llm' } });
    expect(swe.llm.max_tokens).toEqual({ value: 4096, source: { kind: 'default' } });
    expect(swe.settings.max_steps).toEqual({ value: 7, source: { kind: 'agent', agent: 'swe' } });
    expect(swe.settings.duplicate_threshold.source).toEqual({ kind: 'default' });
    expect(swe.apiKey).toEqual({
      isSet: true,
      storage: 'env',
      envVar: 'OPENAI_API_KEY',
      source: { kind: 'llm' },
    });
    const manus = view.agents.manus;
    expect(manus.profile).toBeNull();
    expect(manus.llm.model).toEqual({ value: 'gpt-4o', source: { kind: 'llm' } });
    expect(manus.settings.max_steps).toEqual({ value: 20, source: { kind: 'default' } });
    expect(view.agents.toolcall.settings.max_steps.value).toBe(30);
    expect(view.profiles).toEqual(['fast']);
    expect(JSON.stringify(view)).not.toContain('sk-from-env-123');
  });

  it('reports a broken file with key path and line, and still answers with defaults', () => {
    const { config } = service(
      '[llm]\nmodel = "m"\ntemperature = 9\n\n[agent.manus]\nmax_stepz = 3\n',
    );
    const view = config.view();
    expect(view.error?.issues).toEqual([
      { path: 'llm.temperature', message: expect.stringMatching(/2/), line: 3 },
      { path: 'agent.manus.max_stepz', message: 'unknown key', line: 6 },
    ]);
    expect(view.agents.manus.llm.model.value).toBe('gpt-4o');
    const syntax = service('[llm]\nmodel = \n').config.view();
    expect(syntax.error?.issues[0]).toMatchObject({ line: 2 });
    expect(syntax.error?.message).toMatch(/config\.toml:2:\d+: not valid TOML/);
  });
});

describe('ConfigService save', () => {
  it('edits one agent in place, keeping the comments and every other line', () => {
    const { config, file } = service(CONFIG);
    const view = config.save({ target: 'manus', llm: { model: 'gpt-4.1', temperature: 0.2 } });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(CONFIG.trimEnd())).toBe(true);
    expect(text).toContain('[llm.manus]\nmodel = "gpt-4.1"\ntemperature = 0.2\n');
    expect(view.agents.manus.llm.model).toEqual({
      value: 'gpt-4.1',
      source: { kind: 'profile', profile: 'manus' },
    });
    // another agent keeps its own model
    expect(view.agents.browser.llm.model.value).toBe('gpt-4o');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes to the profile the agent uses, and resets a key to inherited with null', () => {
    const { config, file } = service(CONFIG);
    config.save({
      target: 'swe',
      llm: { model: 'other' },
      settings: { max_steps: null, max_observe: 5000 },
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[llm.fast]\nmodel = "other"\n');
    expect(text).toContain('[agent.swe]\nllm = "fast"\nmax_observe = 5000\n');
    expect(text).toContain('model = "gpt-4o"      # the default');
    const view = config.view();
    expect(view.agents.swe.settings.max_steps).toEqual({ value: 20, source: { kind: 'default' } });
  });

  it('shows, sets and removes a profile’s max_concurrency (null: no cap), comments kept', () => {
    const { config, file } = service(CONFIG);
    expect(config.view().agents.swe.llm.max_concurrency).toEqual({
      value: null,
      source: { kind: 'default' },
    });
    const view = config.save({ target: 'swe', llm: { max_concurrency: 2 } });
    expect(readFileSync(file, 'utf8')).toContain(
      '[llm.fast]\nmodel = "gpt-4o-mini"\nmax_concurrency = 2\n',
    );
    expect(readFileSync(file, 'utf8')).toContain('model = "gpt-4o"      # the default');
    expect(view.agents.swe.llm.max_concurrency).toEqual({
      value: 2,
      source: { kind: 'profile', profile: 'fast' },
    });
    // the runs use it: the resolved profile carries the cap
    expect(config.resolveProfile('toolcall', config.load()).maxConcurrency).toBe(2);
    let error: unknown;
    try {
      config.save({ target: 'swe', llm: { max_concurrency: 0 } });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).issues.map((i) => i.path)).toEqual(['llm.fast.max_concurrency']);
    config.save({ target: 'swe', llm: { max_concurrency: null } });
    expect(readFileSync(file, 'utf8')).not.toContain('max_concurrency');
    expect(config.view().agents.swe.llm.max_concurrency.value).toBeNull();
  });

  it('refuses an invalid save with the key path and line, and leaves the file as it was', () => {
    const { config, file } = service(CONFIG);
    const before = readFileSync(file, 'utf8');
    let error: unknown;
    try {
      config.save({ target: 'manus', llm: { temperature: 7, base_url: 'ftp://x' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues;
    expect(issues.map((i) => i.path).sort()).toEqual([
      'llm.manus.base_url',
      'llm.manus.temperature',
    ]);
    expect(issues.every((i) => typeof i.line === 'number')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('stores a key from the UI in the secret store (0600), never in config.toml, and clears it', () => {
    const { config, file, dir } = service(CONFIG);
    const key = 'sk-ui-secret-0123456789';
    const view = config.save({ target: 'manus', apiKey: { action: 'set', value: key } });
    expect(view.agents.manus.apiKey).toEqual({
      isSet: true,
      storage: 'stored',
      source: { kind: 'profile', profile: 'manus' },
    });
    expect(readFileSync(file, 'utf8')).toContain('api_key = "secret:llm.manus"');
    expect(readFileSync(file, 'utf8')).not.toContain(key);
    const secretsFile = join(dir, 'secrets.json');
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(config.resolveProfile('manus').apiKey).toBe(key);
    expect(config.secretValues()).toContain(key);
    expect(JSON.stringify(view)).not.toContain(key);

    const cleared = config.save({ target: 'manus', apiKey: { action: 'clear' } });
    expect(cleared.agents.manus.apiKey).toMatchObject({ storage: 'env', source: { kind: 'llm' } });
    expect(readFileSync(secretsFile, 'utf8')).not.toContain(key);
  });

  it('creates config.toml when there is none', () => {
    const { config, file } = service();
    expect(config.view().exists).toBe(false);
    config.save({
      target: 'default',
      llm: { model: 'llama3', api_type: 'ollama', base_url: 'http://localhost:11434/v1' },
    });
    expect(readFileSync(file, 'utf8')).toBe(
      '[llm]\nmodel = "llama3"\napi_type = "ollama"\nbase_url = "http://localhost:11434/v1"\n',
    );
    expect(config.view().agents.mcp.llm.api_type).toEqual({
      value: 'ollama',
      source: { kind: 'llm' },
    });
  });

  it('falls back to a full rewrite for layouts it cannot edit in place, and the result is right', () => {
    const { config } = service('llm = { model = "a", temperature = 0.3 }\n');
    const view = config.save({ target: 'default', llm: { model: 'b' } });
    expect(view.defaults.llm.model.value).toBe('b');
    expect(view.defaults.llm.temperature.value).toBe(0.3);
  });

  it('tells its listeners about a saved change', () => {
    const { config } = service(CONFIG);
    const seen: string[] = [];
    config.onChange((v) => seen.push(v.agents.browser.llm.model.value));
    config.save({ target: 'browser', llm: { model: 'vision-model' } });
    expect(seen).toEqual(['vision-model']);
  });
});

const OPENMANUS = `# Global LLM configuration
[llm]
model = "claude-3-7-sonnet-20250219"
base_url = "https://api.anthropic.com/v1/"
api_key = "sk-openmanus-key-123456"
max_tokens = 8192
temperature = 0.0
max_input_tokens = 100000
api_type = ""
api_version = ""

[llm.vision]
model = "claude-3-7-sonnet-20250219"
base_url = "https://api.anthropic.com/v1/"
api_key = "sk-openmanus-key-123456"
max_tokens = 8192
temperature = 0.0

[browser]
headless = false
disable_security = true
chrome_instance_path = "/usr/bin/chromium"

[browser.proxy]
server = "http://proxy:3128"

[search]
engine = "Google"
fallback_engines = ["DuckDuckGo", "Baidu", "Bing"]

[sandbox]
use_sandbox = false
image = "python:3.12-slim"
work_dir = "/workspace"
memory_limit = "1g"
cpu_limit = 2.0
timeout = 300
network_enabled = true

[mcp]
server_reference = "app.mcp.server"

[runflow]
use_data_analysis_agent = false

[daytona]
daytona_api_key = ""
`;

describe('ConfigService OpenManus import', () => {
  it('imports an OpenManus config as it is and says what it left out and why', () => {
    const { config, file, dir } = service(CONFIG);
    const result = config.importOpenManus({ content: OPENMANUS, fileName: 'config.toml' });
    expect(result.isSaved).toBe(true);
    expect(result.imported).toEqual(
      expect.arrayContaining([
        'llm.model',
        'llm.api_key',
        'llm.vision.model',
        'browser.headless',
        'browser.chrome_instance_path (as browser.executable_path)',
        'sandbox.memory_limit',
      ]),
    );
    const ignored = Object.fromEntries(result.ignored.map((i) => [i.path, i.reason]));
    expect(Object.keys(ignored).sort()).toEqual(
      [
        'browser.disable_security',
        'browser.proxy',
        'daytona',
        'llm.max_input_tokens',
        'mcp',
        'runflow',
        'search',
      ].sort(),
    );
    expect(ignored['llm.max_input_tokens']).toMatch(/lifetime/);
    const view = result.config;
    expect(view.error).toBeUndefined();
    expect(view.defaults.llm.model.value).toBe('claude-3-7-sonnet-20250219');
    expect(view.defaults.llm.api_type.value).toBe('openai');
    expect(view.defaults.apiKey).toMatchObject({ isSet: true, storage: 'stored' });
    expect(view.profiles).toEqual(['vision']);
    // our own [agent.*] settings stay; the key went to the secret store
    expect(view.agents.swe.settings.max_steps.value).toBe(7);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-openmanus-key-123456');
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain('sk-openmanus-key-123456');
    expect(existsSync(`${file}.bak`)).toBe(true);
    expect(config.load().sandbox).toMatchObject({
      use_sandbox: false,
      memory_limit: '1g',
      network_enabled: true,
    });
    expect(config.load().browser).toMatchObject({
      headless: false,
      executable_path: '/usr/bin/chromium',
    });
  });

  it('a dry run reports without writing; a value we would reject is left out, not fatal', () => {
    const { config, file } = service(CONFIG);
    const result = config.importOpenManus({
      content: '[llm]\nmodel = "m"\ntemperature = 5.0\n',
      dryRun: true,
    });
    expect(result.isSaved).toBe(false);
    expect(result.ignored.map((i) => i.path).sort()).toEqual(['llm.temperature']);
    expect(readFileSync(file, 'utf8')).toBe(CONFIG);
    // but not a base_url: left out, the profile would send its key to api.openai.com
    expect(() =>
      config.importOpenManus({ content: '[llm]\nmodel = "m"\nbase_url = "not a url"\n' }),
    ).toThrow(/base_url = "not a url".*api\.openai\.com.*Nothing was imported/);
    expect(readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('refuses a file that is not TOML with the line', () => {
    const { config } = service(CONFIG);
    expect(() =>
      config.importOpenManus({ content: '[llm\nmodel = 1', fileName: 'om.toml' }),
    ).toThrow(/om\.toml:1:\d+: not valid TOML/);
  });
});

describe('ConfigService watch', () => {
  it('tells its listeners when config.toml is edited by other hands', async () => {
    const { config, file } = service(CONFIG);
    const seen: string[] = [];
    config.onChange((v) => seen.push(v.agents.manus.llm.model.value));
    const stop = config.watch(20);
    try {
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(file, CONFIG.replace('model = "gpt-4o" ', 'model = "edited-by-hand" '));
      const started = Date.now();
      while (!seen.includes('edited-by-hand') && Date.now() - started < 5000) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen).toContain('edited-by-hand');
    } finally {
      stop();
    }
  });
});
