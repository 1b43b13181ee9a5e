/**
 * `workbench runs resume` after the CLI was killed with SIGKILL mid-step (issue 14): the
 * built CLI, the real Docker engine, the scripted OpenAI server. The killed run's history
 * ends without `run.finished`; the resumed run says where it comes from (`resumeOf`), its
 * first request carries the whole context with the cut-short tool call answered
 * "interrupted" (the server rejects unpaired tool calls, as OpenAI does), it works in the
 * files the killed run left, and it finishes (exit 0).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorkbench } from './testing/workbench-child';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import type { RecordedRequest } from '../runtime/llm/testing/scripted-types';
import { LABELS } from '../runtime/sandbox/container-policy';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';
import { containersWith, docker } from '../runtime/sandbox/testing/sandbox-fixture';

const dockerProbe = await probeDocker();

const isInterrupted = (r: RecordedRequest) =>
  r.messages.some((m) => m.role === 'tool' && String(m.content).startsWith('Interrupted'));

function script(request: RecordedRequest) {
  const results = request.messages.filter((m) => m.role === 'tool').length;
  if (isInterrupted(request)) {
    return { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  }
  const command =
    results === 0
      ? 'printf one > /workspace/one.txt'
      : 'printf half > /workspace/two.txt && sleep 120';
  return { content: `step ${results + 1}`, toolCalls: [{ name: 'bash', arguments: { command } }] };
}

describe.skipIf(!dockerProbe.available)('workbench runs resume', () => {
  const server = new ScriptedOpenAiServer(script);
  let sessionId = '';
  afterAll(async () => {
    await server.close();
    // The killed CLI could not remove its container; the next sandbox use sweeps it, but
    // this test's resumed run never needed one.
    if (sessionId) {
      for (const id of await containersWith({ [LABELS.session]: sessionId }))
        await docker('rm', '-f', id);
    }
  });

  it('continues a run killed mid-step with the cut-short call answered "interrupted"', async () => {
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), 'wb-resume-'));
    const config = join(home, 'config.toml');
    writeFileSync(
      config,
      `[llm]\nmodel = "gpt-resume"\nbase_url = "${baseUrl}"\napi_key = "sk-resume-test-1234"\n\n` +
        `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
      { mode: 0o600 },
    );
    let killedAt = 0;
    const killed = await runWorkbench(
      home,
      ['run', '--jsonl', '--config', config, 'write two files'],
      {
        onEvent: (event, signal) => {
          if (event.type === 'run.started') sessionId = event.sessionId;
          // The second command is running (it sleeps): kill the CLI mid-step.
          if (event.type === 'tool.started' && event.step === 2 && !killedAt) {
            killedAt = Date.now();
            setTimeout(() => signal('SIGKILL'), 1_500);
          }
        },
      },
    );
    expect(killed.code).toBe(null);
    expect(killed.events.some((e) => e.type === 'run.finished')).toBe(false);
    const runId = killed.events[0]!.runId;
    const sleepCall = killed.events.find((e) => e.type === 'tool.started' && e.step === 2);
    if (sleepCall?.type !== 'tool.started') throw new Error('no second call');
    const before = server.requests.length;

    const resumed = await runWorkbench(home, [
      'runs',
      'resume',
      runId,
      '--jsonl',
      '--config',
      config,
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.events[0]).toMatchObject({
      type: 'run.started',
      resumeOf: { runId, step: 2 },
      sessionId,
    });
    expect(resumed.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    expect(resumed.events.find((e) => e.type === 'step.started')).toMatchObject({ step: 3 });

    // Its first request: the task, both calls, the first's output, the second answered
    // "interrupted" (the server checks every call is answered before the script sees it).
    const first = server.requests[before]!;
    expect(first.rejected).toBeUndefined();
    const answer = first.messages.find(
      (m) => m.role === 'tool' && m.tool_call_id === sleepCall.toolCallId,
    );
    expect(String(answer?.content)).toMatch(/^Interrupted: the app was stopped/);
    expect(first.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(first.messages.find((m) => m.role === 'user')?.content).toBe('write two files');
    // The workspace as the killed run left it.
    const workspace = join(home, 'workspaces', sessionId);
    expect(readFileSync(join(workspace, 'one.txt'), 'utf8')).toBe('one');
    expect(existsSync(join(workspace, 'two.txt'))).toBe(true);

    // `runs fork` from the command line: a step that does not exist is bad usage (exit 2);
    // a fork of the resumed run at its step 3 with a message runs and finishes (exit 0).
    const resumedId = resumed.events[0]!.runId;
    const bad = await runWorkbench(home, [
      'runs',
      'fork',
      resumedId,
      '--at',
      '99',
      '--config',
      config,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no finished step 99/);
    const forked = await runWorkbench(home, [
      'runs',
      'fork',
      resumedId,
      '--at',
      '3',
      '--message',
      'Once more, please.',
      '--jsonl',
      '--config',
      config,
    ]);
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.events[0]).toMatchObject({
      type: 'run.started',
      forkOf: { runId: resumedId, step: 3 },
    });
    const forkRequest = server.requests.at(-1)!;
    expect(forkRequest.messages.some((m) => m.content === 'Once more, please.')).toBe(true);
    // `runs delete` takes the fork's workspace along.
    const forkId = forked.events[0]!.runId;
    const deleted = await runWorkbench(home, ['runs', 'delete', forkId]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(existsSync(join(home, 'runs', `${forkId}.jsonl`))).toBe(false);
    expect(existsSync(join(home, 'workspaces', `fork-${forkId}`))).toBe(false);
  }, 180_000);
});
