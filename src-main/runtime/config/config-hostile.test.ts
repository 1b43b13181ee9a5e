/**
 * config.toml that is not a page of settings, and settings that must not pass quietly
 * (issue 12 item 8): before, a FIFO hung the app, a symlink to /dev/zero was read until
 * 16.9 GB, `[agent.nope]` was accepted, and a key in a world-readable file said nothing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigService } from './config-service';
import { ConfigError, loadConfigFile } from './load';
import { FileSecretStore } from './secrets';

function fresh(): string {
  return join(mkdtempSync(join(tmpdir(), 'wb-config-')), 'config.toml');
}

function service(file: string) {
  const warnings: string[] = [];
  const config = new ConfigService({
    file,
    secrets: new FileSecretStore(join(file, '..', 'secrets.json'), undefined, (w) =>
      warnings.push(w),
    ),
    env: {},
    onWarning: (w) => warnings.push(w),
  });
  return { config, warnings };
}

describe('a config file that is not one', () => {
  const cases: [string, (file: string) => void, RegExp][] = [
    ['a FIFO', (f) => execFileSync('mkfifo', [f]), /named pipe \(FIFO\), not a regular file/],
    ['a link to /dev/zero', (f) => symlinkSync('/dev/zero', f), /is a device, not a regular file/],
    ['a folder', (f) => mkdirSync(f), /is a folder, not a regular file/],
    ['2 MB', (f) => writeFileSync(f, `# ${'x'.repeat(2 * 1024 * 1024)}\n`), /is too large/],
  ];

  it.each(cases)('refuses %s at once with the file named', (_, make, reason) => {
    const file = fresh();
    make(file);
    const started = performance.now();
    let error: unknown;
    try {
      loadConfigFile(file);
    } catch (e) {
      error = e;
    }
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(file);
    expect((error as ConfigError).message).toMatch(reason);
    // The settings page still answers (with defaults and the error), never hangs.
    expect(service(file).config.view().error?.message).toMatch(reason);
  });
});

describe('settings that must not pass quietly', () => {
  it('refuses an unknown [agent.NAME] with its line and the agents there are', () => {
    const file = fresh();
    writeFileSync(file, '[agent.manus]\nmax_steps = 5\n\n[agent.nope]\nmax_steps = 3\n');
    expect(() => loadConfigFile(file)).toThrow(
      /agent\.nope \(line 4\): unknown agent \(the agents are manus, swe, browser, mcp, toolcall, planning\)/,
    );
  });

  it('warns (once) about an API key in a config.toml other users can read', () => {
    const file = fresh();
    writeFileSync(
      file,
      '[llm]\napi_key = "sk-inline-1234567"\n[llm.swe]\napi_key = "sk-2-1234567"\n',
    );
    chmodSync(file, 0o644);
    const { config, warnings } = service(file);
    config.load();
    config.load();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${file} can be read by other users of this machine (mode 0644)`);
    expect(warnings[0]).toContain('llm.api_key, llm.swe.api_key');
    expect(warnings[0]).toContain(`chmod 600 ${file}`);
    expect(warnings[0]).not.toContain('sk-inline');
    expect(config.view().warnings).toEqual(warnings);
  });

  it('says nothing when the file is private or holds only references', () => {
    const privateFile = fresh();
    writeFileSync(privateFile, '[llm]\napi_key = "sk-inline-1234567"\n', { mode: 0o600 });
    const refs = fresh();
    writeFileSync(
      refs,
      '[llm]\napi_key = "env:OPENAI_API_KEY"\n[llm.swe]\napi_key = "secret:llm.swe"\n',
    );
    chmodSync(refs, 0o644);
    for (const file of [privateFile, refs]) {
      const { config, warnings } = service(file);
      config.load();
      expect(warnings, file).toEqual([]);
      expect(config.view().warnings, file).toBeUndefined();
    }
  });

  it('shows a damaged secrets.json with the settings and still loads the config', () => {
    const file = fresh();
    writeFileSync(file, '[llm]\nmodel = "m"\n');
    mkdirSync(join(file, '..', 'secrets.json'));
    const { config } = service(file);
    expect(config.load().llm.default.model).toBe('m');
    expect(config.secretValues()).toEqual([]);
    expect(config.view().warnings?.join()).toMatch(/secrets\.json is a folder/);
  });
});
