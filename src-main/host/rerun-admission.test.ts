/**
 * "Run again" after a settings change (issue 25 item 10): a baseline re-run used today's
 * model. Against the real run factory: the re-run asks the model, endpoint and parameters
 * the run recorded, with the key of today's profile at that base URL; "today's settings"
 * is a choice of its own; what cannot be rebuilt is refused, saying why and what to do.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunStartedEvent } from '@shared/events';
import type { RunStartInput } from '@shared/ipc';
import type { LlmProfile } from '../runtime/config/schema';
import { ScriptedLlm } from '../runtime/llm/scripted-llm';
import { exportRun, importRun } from '../runtime/runs/run-transfer';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { admitRerun, rerunAgentInput } from './rerun-admission';

const KEY = 'sk-rerun-test-0123456789';
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

const config = (model: string, extra: string[] = []) =>
  [
    '[llm]',
    `model = "${model}"`,
    'base_url = "https://llm.example.com/v1?tenant=a"',
    'api_key = "env:RERUN_KEY"',
    '[agent.toolcall]',
    ...extra,
    '',
  ].join('\n');

function setUp() {
  const home = mkdtempSync(join(tmpdir(), 'wb-rerun-'));
  const file = join(home, 'config.toml');
  writeFileSync(
    file,
    config('m-baseline', ['max_steps = 7']).replace('[llm]\n', '[llm]\ntemperature = 0.3\n'),
  );
  const asked: LlmProfile[] = [];
  const events: RunEvent[] = [];
  runtime = createRuntime({
    home,
    sweepAtStart: false,
    env: { RERUN_KEY: KEY },
    createLlm: (profile) => {
      asked.push(profile);
      return new ScriptedLlm(
        () => ({ toolCalls: [{ name: 'terminate', args: { status: 'success' } }] }),
        { model: profile.model },
      );
    },
  });
  runtime.runs.onEvent((e) => events.push(e));
  const started = (runId: string) =>
    events.find(
      (e): e is RunEvent & RunStartedEvent => e.runId === runId && e.type === 'run.started',
    );
  return { home, file, asked, started, runtime };
}

describe('Run again', () => {
  it('with the recorded settings asks the recorded model, with today’s key for that endpoint', async () => {
    const { file, asked, started, runtime: rt } = setUp();
    const first = rt.runs.start({ task: 'baseline', agent: 'toolcall' });
    await first.done;
    expect(asked.at(-1)).toMatchObject({ model: 'm-baseline', temperature: 0.3 });

    // The profile changes afterwards: another model, temperature and step limit.
    writeFileSync(file, config('m-changed', ['max_steps = 9']));
    const input: RunStartInput = { task: 'baseline', agent: 'toolcall', rerunOf: first.runId };
    const again = rt.runs.start(input, admitRerun(rt, input));
    await again.done;
    expect(asked.at(-1)).toMatchObject({
      model: 'm-baseline',
      temperature: 0.3,
      apiKey: KEY,
      // the full URL of today's profile at that endpoint (the record drops the query)
      baseUrl: 'https://llm.example.com/v1?tenant=a',
    });
    expect(started(again.runId)).toMatchObject({
      rerunOf: first.runId,
      rerunSettings: 'recorded',
      model: 'm-baseline',
      maxSteps: 7,
      settings: { 'llm.model': 'm-baseline', 'llm.temperature': 0.3, 'agent.max_steps': 7 },
    });
    expect(JSON.stringify(started(again.runId))).not.toContain(KEY);

    // Today's settings, when asked for.
    const today: RunStartInput = { ...input, rerunSettings: 'current' };
    expect(admitRerun(rt, today)).toEqual({});
    const current = rt.runs.start(today, admitRerun(rt, today));
    await current.done;
    expect(asked.at(-1)).toMatchObject({ model: 'm-changed', temperature: 1 });
    expect(started(current.runId)).toMatchObject({
      rerunOf: first.runId,
      rerunSettings: 'current',
      maxSteps: 9,
    });
  });

  it('is refused with why and what to do when the key for the recorded endpoint is gone', async () => {
    const { file, runtime: rt } = setUp();
    const first = rt.runs.start({ task: 'baseline', agent: 'toolcall' });
    await first.done;
    writeFileSync(file, config('m-changed').replace('llm.example.com', 'other.example.com'));
    const input: RunStartInput = { task: 'baseline', agent: 'toolcall', rerunOf: first.runId };
    expect(() => admitRerun(rt, input)).toThrow(
      expect.objectContaining({
        code: 'conflict',
        message: expect.stringMatching(
          /profile "default" \(model m-baseline at https:\/\/llm\.example\.com\/v1\) with an API key, and no profile in config\.toml has a key for https:\/\/llm\.example\.com\/v1 now.*Settings → Models.*today’s settings/,
        ),
      }),
    );
  });

  it('is refused for a run that recorded no settings, and says an imported run came from elsewhere', async () => {
    const { home, runtime: rt } = setUp();
    const first = rt.runs.start({ task: 'baseline', agent: 'toolcall' });
    await first.done;
    const exported = exportRun(rt.runs.history, first.runId).content;
    const otherId = `${first.runId.slice(0, -4)}beef`;
    const lines = exported.replaceAll(first.runId, otherId).split('\n');
    const head = JSON.parse(lines[0]!) as RunStartedEvent;
    delete head.settings;
    lines[0] = JSON.stringify(head);
    importRun(rt.runs.history, lines.join('\n'), 'old.jsonl');
    expect(readFileSync(join(home, 'runs', `${otherId}.jsonl`), 'utf8')).not.toContain('settings');
    expect(() => admitRerun(rt, { task: 'baseline', agent: 'toolcall', rerunOf: otherId })).toThrow(
      `The run cannot start with its recorded settings: Run ${otherId} was imported from another machine; it was recorded before runs kept their settings, so they cannot be rebuilt: use “Run again with today’s settings” (config.toml as it is now).`,
    );
    expect(() => admitRerun(rt, { task: 'x', rerunOf: 'no-such-run' })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('of a user’s agent runs that agent at the version it ran, with its recorded settings', async () => {
    const { home, file, asked, started, runtime: rt } = setUp();
    mkdirSync(join(home, 'agents'));
    const definition = (prompt: string) =>
      [
        'name = "reviewer"',
        'tools = ["terminate"]',
        `system_prompt = "${prompt}"`,
        'next_step_prompt = ""',
        '',
      ].join('\n');
    writeFileSync(join(home, 'agents', 'reviewer.toml'), definition('Review, version one.'));
    const first = rt.runs.start({ task: 'review it', agent: 'manus', agentRef: 'reviewer' });
    await first.done;
    const version = started(first.runId)?.agentDefinition?.version;
    expect(version).toBe(1);

    // The definition and the profile change; the window sends only the task and the run.
    writeFileSync(join(home, 'agents', 'reviewer.toml'), definition('Review, version two.'));
    writeFileSync(file, config('m-changed'));
    const input = rerunAgentInput(rt, { task: 'review it', rerunOf: first.runId });
    expect(input).toMatchObject({ agent: 'manus', agentRef: 'reviewer@1' });
    const again = rt.runs.start(input, admitRerun(rt, input));
    await again.done;
    expect(started(again.runId)?.agentDefinition).toMatchObject({
      version: 1,
      definition: { name: 'reviewer', system_prompt: 'Review, version one.' },
    });
    expect(asked.at(-1)).toMatchObject({ model: 'm-baseline' });
  });

  it('of an agent the workbench only recorded is refused, saying what to do instead', async () => {
    const { runtime: rt } = setUp();
    const external = rt.runs.start(
      { task: 'from a gateway client' },
      {
        agentLabel: 'external: crew',
        factory: async () => ({
          agentName: 'external: crew',
          model: 'm',
          maxSteps: 0,
          execute: async () => ({
            outcome: 'finished',
            state: 'FINISHED',
            steps: 0,
            usage: { prompt: 0, completion: 0 },
            stepResults: [],
          }),
        }),
      },
    );
    await external.done;
    expect(() => rerunAgentInput(rt, { task: 'again', rerunOf: external.runId })).toThrow(
      expect.objectContaining({
        code: 'conflict',
        message: expect.stringMatching(/made by "external: crew".*gateway --replay/),
      }),
    );
    // a built-in agent's run: the recorded agent, whatever the window named
    const own = rt.runs.start({ task: 'baseline', agent: 'toolcall' });
    await own.done;
    expect(rerunAgentInput(rt, { task: 'x', agent: 'swe', rerunOf: own.runId })).toMatchObject({
      agent: 'toolcall',
    });
  });
});
