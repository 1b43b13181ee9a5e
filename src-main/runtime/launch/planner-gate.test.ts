/**
 * The planner's model calls pass its profile's gate like an agent's: three PlanningFlow
 * runs at once whose planner profile has `max_concurrency = 1` never have two planner
 * calls in flight at the real (scripted) OpenAI server, and the calls that wait say
 * `llm.queued` with the planner as their agent. The client is the runtime's own (no
 * `createLlm` override): the path every run of the app takes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
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
import { PLANNER_AGENT } from '../flow/planner';
import { createRuntime, type Runtime } from '../runtime';

const PLANNER_MODEL = 'planner-model';
const EXECUTOR_MODEL = 'executor-model';

interface DeclaredTool {
  function: { name: string };
}

/** The planner plans one step and summarises; the executor finishes the step at once. */
function script(request: RecordedRequest): ScriptedServerReply {
  const declared = new Set(((request.tools ?? []) as DeclaredTool[]).map((t) => t.function.name));
  // slow planner answers, so that three flows' planner calls would overlap without a gate
  if (request.model === PLANNER_MODEL) {
    if (!declared.has('planning')) return { content: 'summary', delayMs: 150 };
    const created = request.messages.some((m) => m.role === 'tool');
    return created
      ? { content: 'the plan is set', delayMs: 150 }
      : {
          delayMs: 150,
          toolCalls: [
            {
              name: 'planning',
              arguments: { command: 'create', title: 'Gate', steps: ['answer'] },
            },
          ],
        };
  }
  if (declared.has('finish_plan')) {
    return { toolCalls: [{ name: 'finish_plan', arguments: { summary: 'done' } }] };
  }
  return { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
}

/** The most requests of `model` the server had open at one time. */
function mostInFlight(requests: RecordedRequest[], model: string): number {
  const edges = requests
    .filter((r) => r.model === model)
    .flatMap((r) => [
      { at: r.receivedAt, delta: 1 },
      { at: r.closedAt ?? Number.POSITIVE_INFINITY, delta: -1 },
    ])
    // an answer closing at the very millisecond the next call arrives is not an overlap
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let most = 0;
  for (const edge of edges) most = Math.max(most, (now += edge.delta));
  return most;
}

let runtime: Runtime | undefined;
let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await server?.close();
  runtime = server = undefined;
});

describe('the planner’s model calls pass its profile gate', () => {
  it('caps a planner profile at max_concurrency across flows; waiting calls say llm.queued', async () => {
    const started = await startScriptedServer(script);
    server = started.server;
    const home = mkdtempSync(join(tmpdir(), 'wb-planner-gate-'));
    writeFileSync(
      join(home, 'config.toml'),
      [
        '[llm]',
        `model = "${EXECUTOR_MODEL}"`,
        `base_url = "${started.baseUrl}"`,
        'api_key = "env:WB_PLANNER_GATE_KEY"',
        'max_retries = 0',
        '[llm.plan]',
        `model = "${PLANNER_MODEL}"`,
        'max_concurrency = 1',
        '[agent.planning]',
        'llm = "plan"',
        '[flow.planning]',
        'executors = ["toolcall"]',
        '[sandbox]',
        'use_sandbox = false',
        '',
      ].join('\n'),
    );
    runtime = createRuntime({
      home,
      sweepAtStart: false,
      env: { WB_PLANNER_GATE_KEY: 'sk-test-planner-gate' },
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const flows = [1, 2, 3].map(
      () => runtime!.runs.start({ task: 'Answer.', agent: 'toolcall', flow: 'planning' }).done,
    );
    const results = await Promise.all(flows);
    expect(results.map((r) => `${r.outcome} ${r.error ?? ''}`.trim())).toEqual(
      Array(3).fill('finished'),
    );
    const plannerCalls = server.answered.filter((r) => r.model === PLANNER_MODEL);
    expect(plannerCalls.length).toBeGreaterThanOrEqual(6);
    expect(mostInFlight(server.answered, PLANNER_MODEL)).toBe(1);
    const queued = events.filter((e) => e.type === 'llm.queued');
    expect(queued.length).toBeGreaterThanOrEqual(2);
    for (const event of queued) {
      expect(event).toMatchObject({
        agent: PLANNER_AGENT,
        model: PLANNER_MODEL,
        reason: 'max_concurrency',
        capacity: 1,
      });
    }
  });
});
