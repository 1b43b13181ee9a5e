/**
 * Issue 25 item 1: a run whose sandbox can never start must not run every step and exit
 * 0. `workbench run` as a user runs it (the built CLI, a real model client, the scripted
 * OpenAI server): swe with an image that cannot be pulled (no registry is reachable from
 * the test machines, so an unknown image fails; the pull is tried once), and manus with
 * DOCKER_HOST at a socket that does not exist. Each ends as `error`, exit 1, with the
 * cause and the fix, after one sandbox attempt and without asking the model again
 * (docs/run-outcome.md, "A sandbox that cannot start").
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '@shared/events';
import { scenarioScript, parseScenarioFile } from '../runtime/llm/testing/scenario-script';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { runWorkbench, type Ran } from './testing/workbench-child';

const UNPULLABLE = 'workbench-test-nope/never:1';
const NO_ENGINE = 'unix:///nonexistent';

/** Every scenario calls sandbox tools again and again, then would terminate with success. */
const scenarios = parseScenarioFile(
  JSON.stringify({
    scenarios: [
      {
        name: 'swe-fix',
        match: 'fix the swe bug',
        turns: [
          { toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] },
          { toolCalls: [{ name: 'bash', arguments: { command: 'cat README.md' } }] },
          { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
        ],
      },
      {
        name: 'manus-fix',
        match: 'fix the manus bug',
        turns: [
          { toolCalls: [{ name: 'python_execute', arguments: { code: 'print(1)' } }] },
          { toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] },
          { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
        ],
      },
    ],
  }),
);

let server: ScriptedOpenAiServer;
let dir: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer(scenarioScript(scenarios));
  const baseUrl = await server.start();
  dir = mkdtempSync(join(tmpdir(), 'wb-sandbox-unavailable-'));
  writeFileSync(
    join(dir, 'config.toml'),
    [
      '[llm]',
      'model = "gpt-cli"',
      `base_url = "${baseUrl}"`,
      'api_key = "sk-sandbox-unavailable"',
      'max_retries = 0',
      '',
      '[sandbox]',
      `image = "${UNPULLABLE}"`,
      '',
    ].join('\n'),
  );
  chmodSync(join(dir, 'config.toml'), 0o600); // it holds a key: no warning about it
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => server.reset());

/**
 * Without --jsonl, as CI runs it: stderr is what the user reads; the events are read back
 * from the run's history.
 */
async function run(agent: string, task: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const home = mkdtempSync(join(tmpdir(), 'wb-sandbox-unavailable-home-'));
  const args = ['run', '--agent', agent, '--config', join(dir, 'config.toml'), task];
  const ran = await runWorkbench(home, args, { env });
  const logs = readdirSync(join(home, 'runs')).filter((name) => name.endsWith('.jsonl'));
  expect(logs, ran.stderr).toHaveLength(1);
  const lines = readFileSync(join(home, 'runs', logs[0]!), 'utf8')
    .split('\n')
    .filter(Boolean);
  return { ...ran, events: lines.map((line) => JSON.parse(line) as RunEvent) };
}

function finished(ran: Ran): RunEventOf<'run.finished'> {
  const last = ran.events.at(-1);
  expect(last?.type, ran.stderr).toBe('run.finished');
  return last as RunEventOf<'run.finished'>;
}

/** The run's last line on stderr: its verdict, with the run's error. */
function verdict(ran: Ran): string {
  const at = ran.stderr.lastIndexOf('■ ');
  expect(at, ran.stderr).toBeGreaterThanOrEqual(0);
  return ran.stderr.slice(at);
}

/** Sandbox creations that failed: one per attempt at the engine. */
function failedAttempts(events: RunEvent[]): RunEventOf<'sandbox.changed'>[] {
  return events.filter(
    (e): e is RunEventOf<'sandbox.changed'> =>
      e.type === 'sandbox.changed' && e.status === 'failed',
  );
}

describe('workbench run with a sandbox that can never start', () => {
  it('swe with an image that cannot be pulled: exit 1 after one pull and one model call', async () => {
    const ran = await run('swe', 'fix the swe bug');

    expect(ran.code, ran.stderr).toBe(1);
    const end = finished(ran);
    expect(end.outcome).toBe('error');
    // why, and what to do
    expect(end.error).toContain(`"${UNPULLABLE}" is not available locally and could not be pulled`);
    expect(end.error).toContain(`docker pull ${UNPULLABLE}`);
    expect(end.error).toMatch(/the run ends here/i);
    // the verdict the terminal shows says so too
    expect(verdict(ran)).toMatch(/^■ error after 1 step/);
    expect(verdict(ran)).toContain('could not be pulled');
    // one attempt (the pre-warm; the call waited for it), one model call, no second bash
    const attempts = failedAttempts(ran.events);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.reason).toBe('image_unavailable');
    expect(server.answered).toHaveLength(1);
    const calls = ran.events.filter((e) => e.type === 'tool.finished');
    expect(calls).toHaveLength(1);
  }, 60_000);

  it('manus without a Docker engine: exit 1 when the model calls a sandbox tool again after being told', async () => {
    const ran = await run('manus', 'fix the manus bug', { DOCKER_HOST: NO_ENGINE });

    expect(ran.code, ran.stderr).toBe(1);
    const end = finished(ran);
    expect(end.outcome).toBe('error');
    expect(end.error).toContain('Docker is unavailable');
    expect(end.error).toContain(NO_ENGINE);
    expect(end.error).toMatch(/the run ends here/i);
    expect(verdict(ran)).toMatch(/^■ error after 2 steps/);
    expect(verdict(ran)).toContain('No Docker engine socket at unix:///nonexistent');
    // the first failure told the model; its second sandbox call ended the run unrun
    expect(failedAttempts(ran.events)).toHaveLength(1);
    expect(failedAttempts(ran.events)[0]?.reason).toBe('engine_unavailable');
    expect(server.answered).toHaveLength(2);
    const told = server.answered[1]!.messages.filter((m) => m.role === 'tool');
    expect(JSON.stringify(told)).toMatch(/calling a sandbox tool again ends the run/);
    const calls = ran.events.filter(
      (e): e is RunEventOf<'tool.finished'> => e.type === 'tool.finished',
    );
    expect(calls.map((c) => [c.name, c.ok])).toEqual([
      ['python_execute', false],
      ['bash', false],
    ]);
  }, 60_000);
});
