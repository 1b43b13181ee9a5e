/**
 * Every user-supplied path that becomes a host path or a container mount stays under its
 * root (issue 12 item 2). Before: session id `..` passed `^[A-Za-z0-9._-]{1,100}$`, so the
 * workspace became WORKBENCH_HOME, was chowned and mounted read-write; sandboxed code
 * rewrote config.toml with an MCP stdio server and the next run executed it on the host.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRequest } from '@shared/ipc-schemas';
import { ConfigError, parseConfigText } from './config/load';
import { resolveLlmProfile } from './config/resolve';
import { ScriptedProvider } from './demo/scripted-provider';
import { SessionRegistry } from './session/session';
import { containerDirProblem, resolveInside } from './util/contained-path';

const home = () => mkdtempSync(join(tmpdir(), 'wb-paths-'));

describe('session ids (workspace folder, bind-mounted read-write)', () => {
  const bad = [
    '.',
    '..',
    '...',
    '',
    'a/b',
    '../x',
    '..\\x',
    'x\0',
    'a'.repeat(101),
    '%2e%2e',
    ' ..',
  ];
  const good = ['s-1234abcd', 'my.project', '..x', 'x..', 'a'.repeat(100)];

  it.each(bad)('refuses %j in the contract and in the runtime', (id) => {
    expect(parseRequest('run:start', { task: 't', sessionId: id }).ok).toBe(false);
    expect(parseRequest('sandbox:status', { sessionId: id }).ok).toBe(false);
    const workspaces = join(home(), 'workspaces');
    expect(() => new SessionRegistry(workspaces).open(id)).toThrow(/Invalid session id/);
  });

  it.each(good)('accepts %j with its folder strictly inside workspaces/', (id) => {
    expect(parseRequest('run:start', { task: 't', sessionId: id }).ok).toBe(true);
    const workspaces = join(home(), 'workspaces');
    const session = new SessionRegistry(workspaces).open(id);
    expect(session.workspaceDir).toBe(join(workspaces, id));
  });

  it('refuses a workspace folder that is a link leading out', () => {
    const root = home();
    const workspaces = join(root, 'workspaces');
    mkdirSync(workspaces);
    symlinkSync(root, join(workspaces, 'evil'));
    expect(() => new SessionRegistry(workspaces).open('evil')).toThrow(/symbolic link/);
  });

  it.each(['..', '.', 'a/../..'])('refuses run id %j', (runId) => {
    expect(parseRequest('runs:get', { runId }).ok).toBe(false);
    expect(parseRequest('runs:export', { runId }).ok).toBe(false);
  });
});

describe('[sandbox] work_dir (the mount point in the container)', () => {
  const bad: [string, RegExp][] = [
    ['/workspace/../etc', /without "\." or "\.\." parts \(did you mean "\/etc"\?\)/],
    ['/workspace/./x', /without "\." or "\.\."/],
    ['/a//b', /plain absolute path/],
    ['/workspace/', /plain absolute path/],
    ['workspace', /absolute path/],
    ['/', /must not be "\/"/],
    ['/etc', /system folder/],
    ['/etc/app', /must not be \/etc or inside it/],
    ['/usr/local/work', /must not be \/usr/],
    ['/proc/self', /must not be \/proc/],
    ['/tmp', /must not be \/tmp/],
    ['/var/run/docker', /must not be \/var\/run/],
    ['/a:b', /":"/],
  ];
  const good = ['/workspace', '/home/agent/work', '/app', '/var/lib/work', '/opt/x', '/srv/a.b'];

  it.each(bad)('refuses %j', (dir, reason) => {
    expect(containerDirProblem(dir)).toMatch(reason);
    expect(() => parseConfigText(`[sandbox]\nwork_dir = "${dir}"\n`, 'config.toml')).toThrow(
      ConfigError,
    );
  });

  it.each(good)('accepts %j', (dir) => {
    expect(containerDirProblem(dir)).toBeNull();
    const config = parseConfigText(`[sandbox]\nwork_dir = "${dir}"\n`, 'config.toml');
    expect(config.sandbox.work_dir).toBe(dir);
  });

  it('names the key and line of a bad work_dir', () => {
    expect(() =>
      parseConfigText('[sandbox]\nimage = "x"\nwork_dir = "/workspace/../etc"\n', 'config.toml'),
    ).toThrow(/sandbox\.work_dir \(line 3\)/);
  });
});

describe('[llm] scenario (a host file the scripted model reads)', () => {
  const scripted = (root: string, scenario: string) => {
    const config = parseConfigText(
      `[llm]\napi_type = "scripted"\nscenario = ${JSON.stringify(scenario)}\n`,
      'config.toml',
    );
    const profile = resolveLlmProfile(config, 'toolcall', {});
    return new ScriptedProvider({ baseDir: root, env: {} }).client(profile, 'toolcall');
  };

  it.each(['../../etc/passwd', '/etc/passwd', 'sub/../../x.json', '..', '.'])(
    'refuses %j before reading anything',
    (scenario) => {
      expect(() => scripted(home(), scenario)).toThrow(/scenario file .* is outside/);
    },
  );

  it('refuses a link inside the home that leads out of it', async () => {
    const root = home();
    symlinkSync('/etc/passwd', join(root, 'scenario.json'));
    const client = scripted(root, 'scenario.json');
    await expect(
      client.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }),
    ).rejects.toThrow(/leads outside/);
  });

  it('accepts a file in the home, named relative or absolute', () => {
    const root = home();
    writeFileSync(join(root, 's.json'), '{"scenarios":[]}');
    expect(() => scripted(root, 's.json')).not.toThrow();
    expect(() => scripted(root, join(root, 's.json'))).not.toThrow();
  });
});

describe('resolveInside', () => {
  it.each([
    ['a', true],
    ['a/b/c', true],
    ['a/../b', true],
    ['', false],
    ['.', false],
    ['..', false],
    ['a/../..', false],
    ['/elsewhere', false],
    ['a\0b', false],
  ])('%j stays inside: %s', (child, isInside) => {
    const root = '/srv/root';
    if (isInside) expect(resolveInside(root, child, 'x').startsWith(`${root}/`)).toBe(true);
    else expect(() => resolveInside(root, child, 'x')).toThrow();
  });
});
