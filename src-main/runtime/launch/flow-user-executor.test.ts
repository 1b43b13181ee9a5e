/**
 * A user's agent as a PlanningFlow executor (issue 28 item 1): `[flow.planning]
 * executors` named built-in agents only, so a user agent was a config error. Now a plan
 * step tagged with a user agent runs that agent's definition (its system prompt, only its
 * tools plus the flow's own, its profile's model), the run records which definition and
 * version it ran, and a name that is no agent is a config error naming the key.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
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

const PLANNER_MODEL = 'planner-model';
const HELPER_MODEL = 'helper-model';
const HELPER_PROMPT = 'You are HELPER, who answers in haiku.';

interface DeclaredTool {
  function: { name: string };
}

const toolNames = (request: RecordedRequest) =>
  ((request.tools ?? []) as DeclaredTool[]).map((t) => t.function.name).sort();

/** The planner plans one step for helper and summarises; the executor ends the plan. */
function script(request: RecordedRequest): ScriptedServerReply {
  if (request.model === PLANNER_MODEL) {
    if (!toolNames(request).includes('planning')) return { content: 'summary' };
    const created = request.messages.some((m) => m.role === 'tool');
    return created
      ? { content: 'the plan is set' }
      : {
          toolCalls: [
            {
              name: 'planning',
              arguments: { command: 'create', title: 'Haiku', steps: ['[helper] answer'] },
            },
          ],
        };
  }
  return { toolCalls: [{ name: 'finish_plan', arguments: { summary: 'done' } }] };
}

let runtime: Runtime | undefined;
let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await server?.close();
  runtime = server = undefined;
});

function setUp(baseUrl: string, executors: string[], agents: Record<string, string[]>): Runtime {
  const home = mkdtempSync(join(tmpdir(), 'wb-flow-user-'));
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[llm]',
      'model = "default-model"',
      `base_url = "${baseUrl}"`,
      'api_key = "env:WB_FLOW_USER_KEY"',
      'max_retries = 0',
      '[llm.plan]',
      `model = "${PLANNER_MODEL}"`,
      '[llm.mine]',
      `model = "${HELPER_MODEL}"`,
      '[agent.planning]',
      'llm = "plan"',
      '[flow.planning]',
      `executors = [${executors.map((e) => JSON.stringify(e)).join(', ')}]`,
      '[sandbox]',
      'use_sandbox = false',
      '',
    ].join('\n'),
  );
  mkdirSync(join(home, 'agents'));
  for (const [name, tools] of Object.entries(agents)) {
    writeFileSync(
      join(home, 'agents', `${name}.toml`),
      [
        `name = "${name}"`,
        'description = "answers in haiku"',
        'profile = "mine"',
        `tools = [${tools.map((t) => JSON.stringify(t)).join(', ')}]`,
        `system_prompt = "${HELPER_PROMPT}"`,
        'next_step_prompt = ""',
        '',
      ].join('\n'),
    );
  }
  runtime = createRuntime({
    home,
    sweepAtStart: false,
    env: { WB_FLOW_USER_KEY: 'sk-test-flow-user-0123' },
  });
  return runtime;
}

describe('a user’s agent as a PlanningFlow executor', () => {
  it('runs a plan step with its prompt, only its tools and its profile; records its version', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    const rt = setUp(started.baseUrl, ['helper'], { helper: ['ask_human', 'terminate'] });
    const events: RunEvent[] = [];
    rt.runs.onEvent((e) => events.push(e));
    const result = await rt.runs.start({ task: 'A haiku.', agent: 'manus', flow: 'planning' }).done;
    expect(`${result.outcome} ${result.error ?? ''}`.trim()).toBe('finished');

    const requested = events.filter(
      (e): e is Extract<RunEvent, { type: 'llm.requested' }> =>
        e.type === 'llm.requested' && e.agent === 'helper',
    );
    expect(requested.length).toBeGreaterThanOrEqual(1);
    expect(requested[0]!.system).toContain(HELPER_PROMPT);
    expect(requested[0]!.model).toBe(HELPER_MODEL);
    // its own tools and the flow's (planning, finish_plan): nothing of Manus's
    expect(requested[0]!.tools?.map((t) => t.function.name).sort()).toEqual([
      'ask_human',
      'finish_plan',
      'planning',
      'terminate',
    ]);
    const sent = server.answered.filter((r) => r.model === HELPER_MODEL);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent[0]!.messages[0]).toMatchObject({ role: 'system' });
    expect(String(sent[0]!.messages[0]!.content)).toContain(HELPER_PROMPT);
    expect(toolNames(sent[0]!)).toEqual(['ask_human', 'finish_plan', 'planning', 'terminate']);

    const runStarted = events.find(
      (e): e is Extract<RunEvent, { type: 'run.started' }> => e.type === 'run.started',
    );
    expect(runStarted?.settings).toMatchObject({
      'flow.executors': 'helper',
      'helper.agent.definition': 'helper@1',
      'helper.agent.definition_hash': expect.stringMatching(/^[0-9a-f]{16}$/),
      'helper.llm.model': HELPER_MODEL,
      'helper.llm.profile': 'mine',
      'planning.llm.model': PLANNER_MODEL,
    });
  });

  it('refuses an executor that is no agent: a config error naming the key and what exists', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    const rt = setUp(started.baseUrl, ['manus', 'ghost'], { helper: ['terminate'] });
    const result = await rt.runs.start({ task: 'A haiku.', agent: 'manus', flow: 'planning' }).done;
    expect(result.outcome).toBe('error');
    expect(result.error).toContain('[flow.planning] executors');
    expect(result.error).toContain('there is no agent "ghost"');
    expect(result.error).toMatch(/yours \(.*agents\) are helper/);
    expect(server.answered).toHaveLength(0);

    const report = await preflight(rt.services, { agent: 'manus', flow: 'planning' });
    expect(report.canStart).toBe(false);
    expect(report.checks.find((c) => c.id === 'config')?.message).toContain(
      '[flow.planning] executors: there is no agent "ghost"',
    );
  });

  it('pre-flight checks a user executor’s needs and its profile’s model', async () => {
    const rt = setUp('http://127.0.0.1:9/v1', ['toolcall', 'surfer'], {
      surfer: ['bash', 'browser', 'terminate'],
    });
    const report = await preflight(
      rt.services,
      { agent: 'manus', flow: 'planning' },
      { probeModel: false },
    );
    // toolcall needs no sandbox; surfer's bash does (a flow can route around it: a warning)
    expect(report.checks.find((c) => c.id === 'docker')).toMatchObject({ status: 'warn' });
    expect(report.checks.find((c) => c.id === 'browser')).toBeDefined();
    const models = report.checks.filter((c) => c.id === 'model').map((c) => c.message);
    expect(models.some((m) => m.includes('surfer') && m.includes(HELPER_MODEL))).toBe(true);
  });
});

describe('running a flow again with its recorded settings', () => {
  it('runs a user executor as the version it ran, not its newest text', () => {
    const config = configSchema.parse({ flow: { planning: { executors: ['manus', 'helper'] } } });
    const rebuilt = withRecordedSettings(
      config,
      {
        runId: 'r1',
        agent: 'planning',
        flow: 'planning',
        settings: {
          'planning.llm.model': 'gpt-4o',
          'planning.llm.base_url': 'https://api.openai.com/v1',
          'flow.executors': 'manus, helper',
          'helper.llm.model': HELPER_MODEL,
          'helper.agent.definition': 'helper@2',
          'helper.agent.definition_hash': '0123456789abcdef',
        },
      },
      (raw) => raw,
    );
    expect(rebuilt.flow.planning.executors).toEqual(['manus', 'helper@2']);
  });
});
