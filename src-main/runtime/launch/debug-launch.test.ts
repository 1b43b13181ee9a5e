/**
 * The debugger as a run gets it from config.toml, through the real run factory and run
 * manager and `api_type = "scripted"` (the scripted server, the real client): saved
 * breakpoints and approval tools of `[agent.NAME]`, a change of model profile or
 * temperature for the rest of the run, and PlanningFlow honouring pause at its planner
 * calls and breakpoints inside its executors.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '@shared/events';
import { createRuntime, type Runtime } from '../runtime';

const SCENARIOS = {
  default: 'answer',
  scenarios: [
    {
      name: 'planner',
      match: '/^Create a reasonable plan/',
      turns: [
        {
          toolCalls: [
            {
              name: 'planning',
              arguments: { command: 'create', plan_id: 'p', title: 'Plan', steps: ['Answer it'] },
            },
          ],
        },
      ],
    },
    { name: 'summary', match: '/^The task was/', turns: [{ content: 'All done.' }] },
    {
      name: 'answer',
      turns: [
        {
          content: 'Answering as {{model}}.',
          toolCalls: [{ name: 'create_chat_completion', arguments: { response: '{{model}}' } }],
        },
        {
          content: 'Finished as {{model}}.',
          toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
        },
      ],
    },
  ],
};

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.dispose()));
});

function start(agentSettings: string) {
  const home = mkdtempSync(join(tmpdir(), 'wb-debug-launch-'));
  writeFileSync(join(home, 'scenarios.json'), JSON.stringify(SCENARIOS));
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[llm]',
      'model = "model-a"',
      'api_type = "scripted"',
      'scenario = "scenarios.json"',
      'temperature = 0.2',
      '',
      '[llm.other]',
      'model = "model-b"',
      '',
      '[flow.planning]',
      'executors = ["toolcall"]',
      '',
      agentSettings,
    ].join('\n'),
  );
  const runtime = createRuntime({ home, env: {} });
  runtimes.push(runtime);
  const events: RunEvent[] = [];
  const pauses: RunEventOf<'run.paused'>[] = [];
  const waiters: ((e: RunEventOf<'run.paused'>) => void)[] = [];
  runtime.runs.onEvent((e) => {
    events.push(e);
    if (e.type !== 'run.paused') return;
    const waiter = waiters.shift();
    if (waiter) waiter(e);
    else pauses.push(e);
  });
  const nextPause = () =>
    pauses.length > 0
      ? Promise.resolve(pauses.shift()!)
      : new Promise<RunEventOf<'run.paused'>>((resolve) => waiters.push(resolve));
  return { runtime, events, nextPause };
}

describe('the debugger from config.toml', () => {
  it('[agent.NAME] breakpoints and approve_tools apply to the agent’s runs, and are reported at the start', async () => {
    const { runtime, events, nextPause } = start(
      [
        '[agent.toolcall]',
        'breakpoints = ["step:2"]',
        'approve_tools = ["create_chat_completion"]',
      ].join('\n'),
    );
    const { runId, done } = runtime.runs.start({ task: 'single run', agent: 'toolcall' });
    const debug = runtime.runs.debugger(runId)!;
    const approval = await nextPause();
    expect(approval).toMatchObject({
      point: 'before_tools',
      step: 1,
      reasons: [{ kind: 'approval', tools: ['create_chat_completion'] }],
    });
    debug.edit(
      { kind: 'edit_call', toolCallId: approval.calls![0]!.id, arguments: '{"response":"edited"}' },
      'ui',
    );
    debug.resume('continue', 'ui');
    const step = await nextPause();
    expect(step).toMatchObject({ point: 'before_model', step: 2 });
    debug.resume('continue', 'ui');
    await expect(done).resolves.toMatchObject({ outcome: 'finished' });

    const types = events.map((e) => e.type);
    expect(types.indexOf('breakpoints.changed')).toBe(types.indexOf('run.started') + 1);
    expect(events.find((e) => e.type === 'breakpoints.changed')).toMatchObject({
      by: 'config',
      breakpoints: [{ id: 'bp-1', spec: 'step:2', origin: 'config', agent: 'toolcall' }],
      approvals: [{ tool: 'create_chat_completion', agent: 'toolcall' }],
    });
    const finished = events.find((e) => e.type === 'tool.finished');
    expect(finished).toMatchObject({ name: 'create_chat_completion', output: 'edited' });
    expect(runtime.runs.debugger(runId)).toBeUndefined();
  });

  it('a run’s own breakpoints come with the request; a bad one ends the run with a clear error', async () => {
    const { runtime } = start('');
    const bad = runtime.runs.start({
      task: 'single run',
      agent: 'toolcall',
      breakpoints: ['cost:1'],
    });
    await expect(bad.done).resolves.toMatchObject({
      outcome: 'error',
      error: expect.stringContaining('the cost of model-a cannot be estimated'),
    });
  });

  it('change_model switches the profile or the temperature for the rest of the run', async () => {
    const { runtime, events, nextPause } = start('');
    const { runId, done } = runtime.runs.start({
      task: 'single run',
      agent: 'toolcall',
      breakpoints: ['step:2'],
    });
    await nextPause();
    const debug = runtime.runs.debugger(runId)!;
    expect(debug.edit({ kind: 'change_model', profile: 'other', temperature: 1.1 }, 'ui')).toEqual({
      applied: true,
    });
    expect(() => debug.edit({ kind: 'change_model', profile: 'missing' }, 'ui')).toThrow(
      'There is no profile [llm.missing] in config.toml (profiles: default, other)',
    );
    debug.resume('continue', 'ui');
    await done;
    const responded = events.filter((e) => e.type === 'llm.responded');
    expect(responded.map((e) => e.type === 'llm.responded' && e.content)).toEqual([
      'Answering as model-a.',
      'Finished as model-b.',
    ]);
    expect(events.find((e) => e.type === 'run.edited')).toMatchObject({
      edit: {
        kind: 'change_model',
        before: { model: 'model-a', profile: 'default', temperature: 0.2 },
        after: { model: 'model-b', profile: 'other', temperature: 1.1 },
      },
    });
  });
});

describe('PlanningFlow honours the debugger', () => {
  it('pauses before the planner’s calls and at breakpoints inside its executors, numbered run-wide', async () => {
    const { runtime, events, nextPause } = start(
      '[agent.toolcall]\nbreakpoints = ["tool:terminate"]',
    );
    const { runId, done } = runtime.runs.start({ task: 'flow task', flow: 'planning' });
    const debug = runtime.runs.debugger(runId)!;
    debug.pause();
    const planner = await nextPause();
    expect(planner).toMatchObject({
      agent: 'planning',
      point: 'planner',
      reasons: [{ kind: 'user' }],
    });
    expect(() => debug.edit({ kind: 'add_message', role: 'user', content: 'x' }, 'ui')).toThrow(
      "add_message does not apply now: the run is paused before the planner's model call, where nothing can be edited.",
    );
    debug.resume('continue', 'ui');
    const executor = await nextPause();
    expect(executor).toMatchObject({
      agent: 'toolcall',
      point: 'before_tools',
      step: 2,
      reasons: [{ condition: 'tool:terminate' }],
    });
    debug.resume('cycle', 'ui');
    // the executor finished; the next safe point is the planner's summary call
    const summary = await nextPause();
    expect(summary).toMatchObject({
      agent: 'planning',
      point: 'planner',
      reasons: [{ kind: 'step' }],
    });
    debug.resume('continue', 'ui');
    await expect(done).resolves.toMatchObject({ outcome: 'finished' });
    expect(events.filter((e) => e.type === 'run.resumed')).toHaveLength(3);
  });
});
