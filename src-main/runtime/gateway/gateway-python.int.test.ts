/**
 * A plain Python agent on the official `openai` package, pointed at the model gateway
 * with the project's scripted server behind it (issue 29): its run and steps, tool calls
 * paired with the results it sent back, duplicate and stuck, the debugger holding its
 * call, replay without an upstream call.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { probeTestPython } from '../util/testing/python-env';
import type { ScriptFunction } from '../llm/testing/scripted-openai-server';
import { startGatewayFixture, waitFor, type GatewayFixture } from './testing/gateway-fixture';

const python = probeTestPython(['openai']);
const AGENT = join(__dirname, 'testing', 'python_agent.py');

const weather = (city: string) => ({ name: 'get_weather', arguments: { city } });
/** turn 1: two calls at once; 2-4: the same call (a duplicate, then stuck); 5: the answer */
const script: ScriptFunction = (request) => {
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn === 1) return { toolCalls: [weather('Paris'), weather('Rome')] };
  if (turn <= 4) return { content: 'Checking again.', toolCalls: [weather('Paris')] };
  return { content: 'Sunny in Paris and Rome.' };
};

function runAgent(
  fixture: GatewayFixture,
  env: Record<string, string> = {},
): Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }> {
  const child = spawn(python.python!, [AGENT], {
    env: {
      PATH: process.env['PATH'] ?? '',
      OPENAI_BASE_URL: fixture.gateway.url,
      OPENAI_API_KEY: fixture.gateway.token,
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        stderr,
        lines: stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      }),
    ),
  );
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

let fixture: GatewayFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe.skipIf(!python.available)('the model gateway with a Python openai agent', () => {
  it('records the agent as a run: steps, paired tool results, duplicate and stuck, the exact fields', async () => {
    fixture = await startGatewayFixture(script, { idleMs: 1_500 });
    const result = await runAgent(fixture);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.lines.at(-1)).toMatchObject({ turn: 5, content: 'Sunny in Paris and Rome.' });
    // every request reached the model with the profile's key and its fields unchanged
    const sent = fixture.upstream.requests;
    expect(sent).toHaveLength(5);
    expect(sent[0]!.body).toMatchObject({
      seed: 7,
      metadata: { suite: 'gateway' },
      temperature: 0.2,
    });
    const [runId] = fixture.runIds();
    await waitFor(
      () => fixture!.eventsOf(runId!).some((e) => e.type === 'run.finished'),
      'the idle run to end',
    );
    const events = fixture.eventsOf(runId!);
    const started = ofType(events, 'run.started')[0]!;
    expect(started.agent).toBe('external: openai-python');
    expect(started.task).toBe('What is the weather in Paris and Rome?');
    expect(ofType(events, 'step.started').map((e) => e.step)).toEqual([1, 2, 3, 4, 5]);
    expect(ofType(events, 'step.finished').map((e) => e.step)).toEqual([1, 2, 3, 4, 5]);
    // step 1's two parallel calls, each paired with the result the agent sent back
    const finished = ofType(events, 'tool.finished').filter((e) => e.step === 1);
    expect(finished.map((e) => [e.name, e.output, e.ok])).toEqual([
      ['get_weather', 'sunny in Paris', true],
      ['get_weather', 'sunny in Rome', true],
    ]);
    const startedCalls = ofType(events, 'tool.started').filter((e) => e.step === 1);
    expect(startedCalls.map((e) => e.toolCallId)).toEqual(finished.map((e) => e.toolCallId));
    expect(startedCalls[0]!.args).toEqual({ city: 'Paris' });
    // a repeat is marked duplicate, the third the same is stuck (built-in rules)
    const assistants = ofType(events, 'memory.appended').filter(
      (e) => e.message.role === 'assistant',
    );
    expect(assistants.map((e) => e.duplicate ?? null)).toEqual([null, null, 'both', 'both', null]);
    expect(ofType(events, 'stuck.detected').map((e) => [e.step, e.kind])).toEqual([
      [4, 'content'],
      [4, 'tool_calls'],
    ]);
    const responded = ofType(events, 'llm.responded');
    expect(responded).toHaveLength(5);
    expect(responded[0]!.usage.prompt).toBeGreaterThan(0);
    expect(responded[0]!.usageSource).toBe('provider');
    const requested = ofType(events, 'llm.requested');
    expect(requested[0]!.system).toBe('You are a weather agent. Use get_weather.');
    expect(requested[0]!.tools?.[0]?.function.name).toBe('get_weather');
    expect(requested[0]!.params).toEqual({ temperature: 0.2 });
    const end = ofType(events, 'run.finished')[0]!;
    expect(end).toMatchObject({ outcome: 'finished', steps: 5 });
    // the summary lists it like any run
    expect(fixture.runtime.runs.get(runId!)).toMatchObject({
      agent: 'external: openai-python',
      steps: 5,
    });
  });

  it('replays the run without calling the model, and reports a changed prompt as the divergence at step 1', async () => {
    fixture = await startGatewayFixture(script, { idleMs: 1_000 });
    await runAgent(fixture);
    const [original] = fixture.runIds();
    await waitFor(
      () => fixture!.eventsOf(original!).some((e) => e.type === 'run.finished'),
      'the run to end',
    );
    const calls = fixture.upstream.requests.length;
    const reports: string[] = [];
    await fixture.restart({
      idleMs: 1_000,
      replay: { runId: original! },
      report: (m) => reports.push(m),
    });
    const again = await runAgent(fixture);
    expect(again.code).toBe(0);
    expect(fixture.upstream.requests).toHaveLength(calls);
    const replayId = fixture.runIds()[1]!;
    await waitFor(
      () => fixture!.eventsOf(replayId).some((e) => e.type === 'run.finished'),
      'the replay to end',
    );
    const callsOf = (id: string) =>
      ofType(fixture!.eventsOf(id), 'tool.started').map((e) => [
        e.step,
        e.toolCallId,
        e.name,
        e.args,
      ]);
    expect(callsOf(replayId)).toEqual(callsOf(original!));
    expect(ofType(fixture.eventsOf(replayId), 'run.started')[0]!.rerunOf).toBe(original);
    expect(reports).toEqual([]);

    await fixture.restart({
      idleMs: 1_000,
      replay: { runId: original!, onDivergence: 'fail' },
      report: (m) => reports.push(m),
    });
    const changed = await runAgent(fixture, { TASK: 'And in Oslo?' });
    expect(changed.code).toBe(3);
    expect(String(changed.lines[0]!['error'])).toMatch(/differs from the recording at step 1/);
    expect(fixture.upstream.requests).toHaveLength(calls);
    const divergedId = fixture.runIds()[2]!;
    const diverged = ofType(fixture.eventsOf(divergedId), 'replay.diverged');
    expect(diverged).toEqual([
      expect.objectContaining({ step: 1, replayOf: original, then: 'fail' }),
    ]);
    expect(diverged[0]!.received).toContain('And in Oslo?');
    expect(reports[0]).toMatch(/diverged at step 1/);
  });

  it('holds a streamed call at a tool breakpoint; the edited reply is what the agent acts on; stop ends it with an error', async () => {
    fixture = await startGatewayFixture(script, {
      idleMs: 5_000,
      keepAliveMs: 50,
      breakpoints: ['tool:get_weather'],
    });
    const { runtime } = fixture;
    const paused: RunEvent[] = [];
    runtime.runs.onEvent((e) => {
      if (e.type === 'run.paused') paused.push(e);
    });
    const agent = runAgent(fixture, { STREAM: '1', RUN_NAME: 'weather' });
    await waitFor(() => paused.length === 1, 'the first pause');
    const runId = paused[0]!.runId;
    // the agent's call waits: the model answered, the agent has not seen it
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fixture.upstream.requests).toHaveLength(1);
    const debug = runtime.runs.debugger(runId)!;
    const first = ofType(fixture.eventsOf(runId), 'llm.responded')[0]!;
    debug.edit(
      { kind: 'edit_call', toolCallId: first.toolCalls[0]!.id, arguments: '{"city":"Berlin"}' },
      'ui',
    );
    debug.resume('continue', 'ui');
    await waitFor(() => paused.length === 2, 'the second pause');
    // the agent's next request shows the edited call and the result it got for it
    const next = fixture.upstream.requests[1]!.body as {
      messages: {
        role: string;
        content: string | null;
        tool_calls?: { function: { arguments: string } }[];
      }[];
    };
    const assistant = next.messages.find((m) => m.role === 'assistant')!;
    expect(assistant.tool_calls?.[0]?.function.arguments).toBe('{"city":"Berlin"}');
    expect(next.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'sunny in Berlin',
      'sunny in Rome',
    ]);
    runtime.runs.stop(runId);
    const result = await agent;
    expect(result.code).toBe(3);
    expect(String(result.lines.at(-1)!['error'])).toMatch(/Agent Workbench stopped this run/);
    await waitFor(
      () => fixture!.eventsOf(runId).some((e) => e.type === 'run.finished'),
      'the run to end',
    );
    const events = fixture.eventsOf(runId);
    expect(ofType(events, 'run.started')[0]!.agent).toBe('external: weather');
    expect(ofType(events, 'run.edited')[0]!.edit).toMatchObject({
      kind: 'edit_call',
      after: '{"city":"Berlin"}',
    });
    expect(ofType(events, 'run.finished')[0]!.outcome).toBe('cancelled');
  });

  it('forks the run at step 3: steps 1-2 replayed, step 3 answered with the edited reply', async () => {
    fixture = await startGatewayFixture(script, { idleMs: 1_000 });
    await runAgent(fixture);
    const [original] = fixture.runIds();
    await waitFor(
      () => fixture!.eventsOf(original!).some((e) => e.type === 'run.finished'),
      'the run to end',
    );
    const calls = fixture.upstream.requests.length;
    await fixture.restart({
      idleMs: 1_000,
      replay: {
        runId: original!,
        liveFrom: 3,
        reply: { model: 'edited', content: 'Forked answer.', toolCalls: [], finishReason: 'stop' },
      },
    });
    const forked = await runAgent(fixture);
    expect(forked.code).toBe(0);
    expect(forked.lines.map((l) => l['turn'])).toEqual([1, 2, 3]);
    expect(forked.lines.at(-1)).toMatchObject({ content: 'Forked answer.', calls: [] });
    expect(fixture.upstream.requests).toHaveLength(calls);
    const forkId = fixture.runIds()[1]!;
    await waitFor(
      () => fixture!.eventsOf(forkId).some((e) => e.type === 'run.finished'),
      'the fork to end',
    );
    const events = fixture.eventsOf(forkId);
    expect(ofType(events, 'run.started')[0]!.forkOf).toEqual({ runId: original, step: 2 });
    expect(ofType(events, 'llm.responded').map((e) => e.content)).toEqual([
      null,
      'Checking again.',
      'Forked answer.',
    ]);
  });
});
