/**
 * Pre-flight of a user's agent (docs/agents.md): it checked the built-in Manus slot the
 * agent's profile rides on, so an agent with nothing but sandbox tools was only warned
 * about a missing sandbox, its own profile's model was not the one named, Chromium was not
 * checked for its browser tool, and a definition that does not load became a failed run.
 * Now what it needs comes from the tools its definition picks.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../runtime';
import { preflight } from './preflight';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

function setUp(agents: Record<string, string[]>, extra = ''): Runtime {
  const home = mkdtempSync(join(tmpdir(), 'wb-preflight-agent-'));
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[llm]',
      'model = "m-default"',
      'base_url = "http://127.0.0.1:9/v1"',
      'api_key = "sk-preflight-0123456789"',
      '[llm.fast]',
      'model = "m-fast"',
      'base_url = "http://127.0.0.1:9/v1"',
      'api_key = "sk-preflight-0123456789"',
      '[sandbox]',
      'use_sandbox = false',
      extra,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  mkdirSync(join(home, 'agents'));
  for (const [name, tools] of Object.entries(agents)) {
    writeFileSync(
      join(home, 'agents', `${name}.toml`),
      [
        `name = "${name}"`,
        'profile = "fast"',
        `tools = [${tools.map((t) => JSON.stringify(t)).join(', ')}]`,
        'system_prompt = "You help."',
        'next_step_prompt = ""',
        '',
      ].join('\n'),
    );
  }
  runtime = createRuntime({ home, sweepAtStart: false, env: {} });
  return runtime;
}

const byId = (checks: { id: string }[], id: string) => checks.find((c) => c.id === id);

describe('pre-flight of a user’s agent', () => {
  it('needs the sandbox as its tools do, names its own profile’s model, checks Chromium for its browser', async () => {
    const rt = setUp({
      coder: ['bash', 'str_replace_editor', 'terminate'],
      helper: ['bash', 'ask_human', 'terminate'],
      talker: ['create_chat_completion', 'terminate'],
      surfer: ['browser', 'terminate'],
    });
    const check = (agentRef: string) =>
      preflight(rt.services, { agent: 'manus', agentRef }, { probeModel: false });

    const coder = await check('coder');
    // nothing but sandbox tools: no sandbox, no run (Manus's slot only warned)
    expect(byId(coder.checks, 'docker')).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/this agent has no tools without it/),
    });
    expect(coder.canStart).toBe(false);
    expect(byId(coder.checks, 'model')).toMatchObject({
      status: 'ok',
      message: 'm-fast at http://127.0.0.1:9/v1',
    });

    const helper = await check('helper');
    expect(byId(helper.checks, 'docker')).toMatchObject({ status: 'warn' });
    expect(helper.canStart).toBe(true);

    const talker = await check('talker');
    expect(byId(talker.checks, 'docker')).toBeUndefined();
    expect(byId(talker.checks, 'browser')).toBeUndefined();

    const surfer = await check('surfer');
    expect(byId(surfer.checks, 'browser')).toBeDefined();
    expect(byId(surfer.checks, 'docker')).toBeUndefined();
  });

  it('refuses a definition that does not load, naming the file, line and key', async () => {
    const rt = setUp({ broken: ['bash', 'no_such_tool'] });
    const report = await preflight(
      rt.services,
      { agent: 'manus', agentRef: 'broken' },
      { probeModel: false },
    );
    expect(report.canStart).toBe(false);
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({
      id: 'agent',
      status: 'error',
      message: expect.stringMatching(/broken\.toml:\d+: tools.*no_such_tool/),
    });
    const missing = await preflight(rt.services, { agent: 'manus', agentRef: 'nobody' });
    expect(missing.checks[0]).toMatchObject({ id: 'agent', status: 'error' });
  });
});
