/**
 * The built-in demo (no API key set): the bundled scenarios run through the scripted
 * provider and the real model client, and Manus's demo uses its real sandbox tools.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { DEMO_MODEL_NAME } from './scripted-provider';

const docker = await probeDocker();
const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

function start(
  configToml: string,
  env: NodeJS.ProcessEnv = { ...process.env, WORKBENCH_DEMO_DELAY_MS: '0' },
) {
  const home = mkdtempSync(join(tmpdir(), 'wb-demo-'));
  writeFileSync(join(home, 'config.toml'), configToml);
  const runtime = createRuntime({ home, env });
  runtimes.push(runtime);
  const events: RunEvent[] = [];
  runtime.runs.onEvent((e) => events.push(e));
  return { runtime, events, home };
}

describe.skipIf(!docker.available)('the built-in demo', () => {
  it('runs Manus with real sandbox tools when no API key is set', async () => {
    const { runtime, events } = start(`[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`);
    const result = await runtime.runs.start({ task: 'show me what you can do', agent: 'manus' })
      .done;

    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(events.find((e) => e.type === 'run.started')).toMatchObject({ model: DEMO_MODEL_NAME });
    const tools = events.flatMap((e) =>
      e.type === 'tool.finished' ? [[e.name, e.ok] as const] : [],
    );
    expect(tools).toEqual([
      ['python_execute', true],
      ['bash', true],
      ['str_replace_editor', true],
      ['terminate', true],
    ]);
    const bash = events.find((e) => e.type === 'tool.finished' && e.name === 'bash');
    expect(bash?.type === 'tool.finished' && bash.output).toContain(
      '25 primes below 100, the largest is 97',
    );
    // Streamed through the real client, like a real model.
    expect(events.some((e) => e.type === 'llm.delta')).toBe(true);
    // The sandbox is made for the first call: between its start and its result, so the
    // UI shows it in that call's card, above the result (issue 25).
    const order = events.flatMap((e) =>
      e.type === 'tool.started' || e.type === 'tool.finished'
        ? [`${e.type} ${e.name}`]
        : e.type === 'sandbox.changed' && (e.status === 'creating' || e.status === 'ready')
          ? [`sandbox ${e.status}`]
          : [],
    );
    expect(order.slice(0, 4)).toEqual([
      'tool.started python_execute',
      'sandbox creating',
      'sandbox ready',
      'tool.finished python_execute',
    ]);
    const started = events.find((e) => e.type === 'run.started');
    const workspace = runtime.services.sessions.open(
      started?.type === 'run.started' ? started.sessionId : '',
    ).workspaceDir;
    expect(readFileSync(join(workspace, 'demo', 'primes.txt'), 'utf8').split('\n')[0]).toBe('2');
  });
});

describe('api_type = "scripted"', () => {
  it('replays a scenario file named relative to WORKBENCH_HOME', async () => {
    const { runtime, events, home } = start(
      `[llm]\napi_type = "scripted"\nmodel = "my-scripted"\nscenario = "my-scenario.json"\n`,
    );
    writeFileSync(
      join(home, 'my-scenario.json'),
      JSON.stringify({
        scenarios: [
          {
            name: 'answer',
            turns: [
              {
                toolCalls: [
                  {
                    name: 'create_chat_completion',
                    arguments: { response: 'served by {{model}}' },
                  },
                ],
              },
              { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
            ],
          },
        ],
      }),
    );
    const result = await runtime.runs.start({ task: 'hi', agent: 'toolcall' }).done;
    expect(result.outcome).toBe('finished');
    const answer = events.find(
      (e) => e.type === 'tool.finished' && e.name === 'create_chat_completion',
    );
    expect(answer?.type === 'tool.finished' && answer.output).toContain('served by my-scripted');
  });

  it('ends the run with a clear error when the scenario file is missing', async () => {
    const { runtime, home } = start(`[llm]\napi_type = "scripted"\nscenario = "nope.json"\n`);
    const result = await runtime.runs.start({ task: 'hi', agent: 'toolcall' }).done;
    expect(result.outcome).toBe('error');
    expect(result.error).toContain(`Cannot use the scenario file ${join(home, 'nope.json')}`);
    expect(result.error).toContain('does not exist');
    expect(existsSync(join(home, 'nope.json'))).toBe(false);
  });
});
