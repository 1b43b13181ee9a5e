/**
 * A user's agent as a PlanningFlow's planner (issue 28 item 1): the planner was always the
 * flow's fixed planning prompt on the `planning` profile. With `[flow.planning] planner`
 * set, the planner's requests carry the definition's rendered system prompt (followed by
 * the executors to tag steps with) on its profile's model, and still only the `planning`
 * tool; the run records which version it ran, "Run again with the recorded settings"
 * plans with that version, and a name that is no agent is a config error naming the key.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunSettings } from '@shared/events';
import {
  startScriptedServer,
  type RecordedRequest,
  type ScriptedOpenAiServer,
  type ScriptedServerReply,
} from '../llm/testing/scripted-openai-server';
import { createRuntime, type Runtime } from '../runtime';
import { preflight } from './preflight';
import { withRecordedSettings } from './recorded-settings';
import { configSchema } from '../config/schema';

const PLANNING_MODEL = 'planning-model';
const MYPLANNER_MODEL = 'myplanner-model';
const HELPER_MODEL = 'helper-model';
const MYPLANNER_PROMPT =
  'You are {{agent_name}}, who plans in three steps at most. Tools:\n{{tools}}';
const RENDERED = 'You are myplanner, who plans in three steps at most. Tools:\n- planning';

interface DeclaredTool {
  function: { name: string };
}

const toolNames = (request: RecordedRequest) =>
  ((request.tools ?? []) as DeclaredTool[]).map((t) => t.function.name).sort();
const systemOf = (request: RecordedRequest) => String(request.messages[0]?.content ?? '');
const isExecutor = (request: RecordedRequest) => request.model === HELPER_MODEL;

/** The planner plans one step for helper and summarises; helper ends the plan. */
function script(request: RecordedRequest): ScriptedServerReply {
  if (isExecutor(request))
    return { toolCalls: [{ name: 'finish_plan', arguments: { summary: 'done' } }] };
  if (!toolNames(request).includes('planning')) return { content: 'summary' };
  return {
    toolCalls: [
      {
        name: 'planning',
        arguments: { command: 'create', title: 'Haiku', steps: ['[helper] answer'] },
      },
    ],
  };
}

let runtime: Runtime | undefined;
let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await server?.close();
  runtime = server = undefined;
});

function agentFile(name: string, profile: string, prompt: string, tools: string[]): string {
  return [
    `name = "${name}"`,
    'description = "answers in haiku"',
    `profile = "${profile}"`,
    `tools = [${tools.map((t) => JSON.stringify(t)).join(', ')}]`,
    `system_prompt = ${JSON.stringify(prompt)}`,
    'next_step_prompt = ""',
    '[run]',
    'max_steps = 3',
    '',
  ].join('\n');
}

function setUp(baseUrl: string, planner: string | undefined): { rt: Runtime; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'wb-flow-planner-'));
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[llm]',
      'model = "default-model"',
      `base_url = "${baseUrl}"`,
      'api_key = "env:WB_FLOW_PLANNER_KEY"',
      'max_retries = 0',
      '[llm.plan]',
      `model = "${PLANNING_MODEL}"`,
      '[llm.pmine]',
      `model = "${MYPLANNER_MODEL}"`,
      '[llm.hmine]',
      `model = "${HELPER_MODEL}"`,
      '[agent.planning]',
      'llm = "plan"',
      '[flow.planning]',
      'executors = ["manus", "helper"]',
      ...(planner !== undefined ? [`planner = "${planner}"`] : []),
      '[sandbox]',
      'use_sandbox = false',
      '',
    ].join('\n'),
  );
  mkdirSync(join(home, 'agents'));
  writeFileSync(
    join(home, 'agents', 'helper.toml'),
    agentFile('helper', 'hmine', 'You are HELPER.', ['terminate']),
  );
  // a planner naming other tools: ignored (it keeps only `planning`), not an error
  writeFileSync(
    join(home, 'agents', 'myplanner.toml'),
    agentFile('myplanner', 'pmine', MYPLANNER_PROMPT, ['bash', 'terminate']),
  );
  runtime = createRuntime({
    home,
    sweepAtStart: false,
    env: { WB_FLOW_PLANNER_KEY: 'sk-test-flow-planner-0123' },
  });
  return { rt: runtime, home };
}

async function runFlow(rt: Runtime, recorded?: RunSettings) {
  const events: RunEvent[] = [];
  const off = rt.runs.onEvent((e) => events.push(e));
  const result = await rt.runs.start(
    { task: 'A haiku.', agent: 'manus', flow: 'planning' },
    recorded
      ? { recorded: { runId: 'r1', agent: 'planning', flow: 'planning', settings: recorded } }
      : {},
  ).done;
  off?.();
  const started = events.find(
    (e): e is Extract<RunEvent, { type: 'run.started' }> => e.type === 'run.started',
  );
  return { result, events, settings: started?.settings ?? {} };
}

describe('a user’s agent as the PlanningFlow planner', () => {
  it('plans with its prompt (and the executors list) on its profile’s model, only the planning tool', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    const { rt } = setUp(started.baseUrl, 'myplanner');
    const { result, events, settings } = await runFlow(rt);
    expect(`${result.outcome} ${result.error ?? ''}`.trim()).toBe('finished');

    const planning = server.answered.filter((r) => !isExecutor(r));
    // plan, summary: all on myplanner's profile, none on the `planning` profile
    expect(planning.length).toBeGreaterThanOrEqual(2);
    expect(planning.every((r) => r.model === MYPLANNER_MODEL)).toBe(true);
    const plan = planning[0]!;
    expect(toolNames(plan)).toEqual(['planning']);
    expect(systemOf(plan)).toBe(
      `${RENDERED}\n\nThese agents can execute steps:\n` +
        '- manus: general tasks: Python, shell and files in a sandbox, web pages, MCP tools\n' +
        '- helper: answers in haiku\n' +
        'Start each step with the tag of the agent that should do it, e.g. "[swe] Fix the failing test".',
    );
    expect(server.answered.some(isExecutor)).toBe(true);

    const requested = events.find(
      (e): e is Extract<RunEvent, { type: 'llm.requested' }> =>
        e.type === 'llm.requested' && e.agent === 'planning',
    );
    expect(requested?.model).toBe(MYPLANNER_MODEL);
    expect(settings).toMatchObject({
      'planning.agent.definition': 'myplanner@1',
      'planning.agent.definition_hash': expect.stringMatching(/^[0-9a-f]{16}$/),
      'planning.llm.profile': 'pmine',
      'planning.llm.model': MYPLANNER_MODEL,
      // the flow's budget stays [agent.planning]'s, not the definition's [run] max_steps
      'planning.agent.max_steps': 60,
    });
  });

  it('without the key, plans with the flow’s own prompt on the planning profile', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    const { rt } = setUp(started.baseUrl, undefined);
    const { result, settings } = await runFlow(rt);
    expect(result.outcome).toBe('finished');
    const plan = server.answered.find((r) => !isExecutor(r))!;
    expect(plan.model).toBe(PLANNING_MODEL);
    expect(systemOf(plan)).toMatch(/^You are a planning assistant\./);
    expect(settings['planning.agent.definition']).toBeUndefined();
  });

  it('refuses a planner that is no agent of yours: a config error naming the key and what exists', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    for (const [planner, says] of [
      ['ghost', 'there is no agent "ghost"'],
      ['manus', '"manus" is a built-in agent, not a planner'],
      ['myplanner@7', 'myplanner has no version 7'],
    ] as const) {
      const { rt } = setUp(started.baseUrl, planner);
      const { result } = await runFlow(rt);
      expect(result.outcome).toBe('error');
      expect(result.error).toContain(`[flow.planning] planner: `);
      expect(result.error).toContain(says);
      expect(server.answered).toHaveLength(0);
      const report = await preflight(rt.services, { agent: 'manus', flow: 'planning' });
      expect(report.canStart).toBe(false);
      const config = report.checks.find((c) => c.id === 'config')?.message;
      expect(config).toContain(`[flow.planning] planner: `);
      expect(config).toContain(says);
      await rt.dispose();
      runtime = undefined;
    }
    const { rt } = setUp(started.baseUrl, 'ghost');
    const { result } = await runFlow(rt);
    expect(result.error).toMatch(/yours \(.*agents\) are helper, myplanner/);
  });

  it('pre-flight checks the planner’s profile’s model', async () => {
    const { rt } = setUp('http://127.0.0.1:9/v1', 'myplanner');
    const report = await preflight(
      rt.services,
      { agent: 'manus', flow: 'planning' },
      { probeModel: false },
    );
    const models = report.checks.filter((c) => c.id === 'model').map((c) => c.message);
    expect(models.some((m) => m.includes('planning') && m.includes(MYPLANNER_MODEL))).toBe(true);
    expect(models.some((m) => m.includes(PLANNING_MODEL))).toBe(false);
  });
});

describe('running a flow again with its recorded settings', () => {
  it('plans with the planner version it ran, not its newest text', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    const { rt, home } = setUp(started.baseUrl, 'myplanner');
    const first = await runFlow(rt);
    expect(first.result.outcome).toBe('finished');
    expect(first.settings['planning.agent.definition']).toBe('myplanner@1');
    // the agent is edited after the run: a new version
    writeFileSync(
      join(home, 'agents', 'myplanner.toml'),
      agentFile('myplanner', 'pmine', 'You are the NEW planner.', ['terminate']),
    );
    const today = await runFlow(rt);
    expect(today.settings['planning.agent.definition']).toBe('myplanner@2');
    server.answered.length = 0;

    const again = await runFlow(rt, first.settings);
    expect(again.result.outcome).toBe('finished');
    expect(again.settings['planning.agent.definition']).toBe('myplanner@1');
    const plan = server.answered.find((r) => !isExecutor(r))!;
    expect(systemOf(plan)).toMatch(
      new RegExp(`^${RENDERED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('keeps the flow’s own planner for a run that ran it, whatever the config says today', () => {
    const config = configSchema.parse({
      flow: { planning: { executors: ['manus'], planner: 'myplanner' } },
    });
    const recorded = (settings: RunSettings) =>
      withRecordedSettings(
        config,
        { runId: 'r1', agent: 'planning', flow: 'planning', settings },
        (raw) => raw,
      ).flow.planning.planner;
    const base = {
      'planning.llm.model': 'gpt-4o',
      'planning.llm.base_url': 'https://api.openai.com/v1',
      'flow.executors': 'manus',
    };
    expect(recorded(base)).toBeUndefined();
    expect(recorded({ ...base, 'planning.agent.definition': 'myplanner@2' })).toBe('myplanner@2');
  });
});
