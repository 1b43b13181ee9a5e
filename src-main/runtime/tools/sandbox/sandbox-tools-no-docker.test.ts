/**
 * Without a Docker engine (DOCKER_HOST at a socket that does not exist) the sandbox is
 * definitely unavailable: it is asked once per run, every call says what to do, and
 * what happens to the run depends on how much the agent needs the sandbox
 * (sandbox-outage.ts): swe's run ends at its first call; Manus's model is told, may go
 * on with other tools or finish, and ends the run by calling a sandbox tool again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { ToolCallAgent } from '../../loop/toolcall-agent';
import { configSchema } from '../../config/schema';
import { ScriptedLlm } from '../../llm/scripted-llm';
import { DockerodeEngine } from '../../sandbox/dockerode-engine';
import { SandboxManager } from '../../sandbox/sandbox-manager';
import { Session } from '../../session/session';
import { createTerminateTool } from '../terminate';
import { ToolRegistry } from '../tool-registry';
import type { SandboxNeed } from './sandbox-outage';
import { sandboxToolset } from './sandbox-toolset';

type Script = ConstructorParameters<typeof ScriptedLlm>[0];
type ToolFinished = Extract<RunEventPayload, { type: 'tool.finished' }>;

const CAUSE =
  /^Docker is unavailable, so the sandbox tools cannot run\..*nonexistent\/docker\.sock/s;

async function runWithoutDocker(script: Script, need?: SandboxNeed) {
  const manager = new SandboxManager({
    engine: new DockerodeEngine({ dockerHost: 'unix:///nonexistent/docker.sock' }),
  });
  const events: RunEventPayload[] = [];
  const emit = (e: RunEventPayload) => events.push(e);
  const input = {
    services: { sandboxes: manager },
    session: new Session('no-docker', mkdtempSync(join(tmpdir(), 'wb-nodocker-'))),
    config: configSchema.parse({}),
    env: { emit, runId: 'r1' },
  };
  const toolset = sandboxToolset(input, ['bash', 'python_execute', 'str_replace_editor'], {
    prewarm: true,
    ...(need ? { need } : {}),
  });
  const llm = new ScriptedLlm(script);
  const tools = new ToolRegistry([...toolset.tools, createTerminateTool()]);
  const agent = new ToolCallAgent(
    { name: 'agent', maxSteps: 5 },
    { llm, tools },
    { emit, runId: 'r1' },
  );
  const result = await agent.run('list the files');
  await tools.dispose();
  await toolset.dispose();
  await manager.dispose();
  const calls = events.filter(
    (e): e is ToolFinished => e.type === 'tool.finished' && e.name !== 'terminate',
  );
  // each failed creation is one attempt at the engine
  const attempts = events.filter((e) => e.type === 'sandbox.changed' && e.status === 'failed');
  return { result, calls, attempts, modelCalls: llm.callCount };
}

describe('sandbox tools without Docker', () => {
  it('turn into error observations that say what to do; the engine is asked once', async () => {
    const { result, calls, attempts } = await runWithoutDocker([
      {
        toolCalls: [
          { name: 'bash', args: { command: 'ls' } },
          { name: 'python_execute', args: { code: 'print(1)' } },
          { name: 'str_replace_editor', args: { command: 'view', path: '/workspace' } },
        ],
      },
      { toolCalls: [{ name: 'terminate', args: { status: 'failure' } }] },
    ]);

    expect(result).toMatchObject({
      outcome: 'finished',
      state: 'FINISHED',
      terminateStatus: 'failure',
    });
    expect(calls.map((e) => e.name)).toEqual(['bash', 'python_execute', 'str_replace_editor']);
    for (const event of calls) {
      expect(event.ok).toBe(false);
      expect(event.error).toMatch(CAUSE);
      expect(event.error).toContain('calling a sandbox tool again ends the run');
    }
    // the pre-warm's attempt; the calls were answered from it
    expect(attempts).toHaveLength(1);
  });

  it('an agent that needs the sandbox (swe) ends at its first call, without asking the model again', async () => {
    const { result, calls, attempts, modelCalls } = await runWithoutDocker(
      [
        {
          toolCalls: [
            { name: 'bash', args: { command: 'ls' } },
            { name: 'str_replace_editor', args: { command: 'view', path: '/workspace' } },
          ],
        },
        { toolCalls: [{ name: 'bash', args: { command: 'ls' } }] },
        { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
      ],
      'required',
    );

    expect(result.outcome).toBe('error');
    expect(result.state).toBe('ERROR');
    expect(result.error).toMatch(CAUSE);
    expect(result.error).toContain(
      'The run ends here: every tool of this agent needs the sandbox.',
    );
    expect(modelCalls).toBe(1);
    expect(attempts).toHaveLength(1);
    expect(calls.map((e) => [e.name, e.ok])).toEqual([
      ['bash', false],
      ['str_replace_editor', false],
    ]);
    expect(calls[1]?.error).toMatch(/^Not executed: the run was stopped by the `bash` call/);
  });

  it('an agent with other tools (Manus) may finish after being told', async () => {
    const { result, attempts, modelCalls } = await runWithoutDocker(
      [
        { toolCalls: [{ name: 'bash', args: { command: 'ls' } }] },
        { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
      ],
      'optional',
    );

    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(modelCalls).toBe(2);
    expect(attempts).toHaveLength(1);
  });

  it('an agent with other tools (Manus) ends when it calls a sandbox tool again after being told', async () => {
    const { result, calls, attempts, modelCalls } = await runWithoutDocker(
      [
        { toolCalls: [{ name: 'bash', args: { command: 'ls' } }] },
        { toolCalls: [{ name: 'python_execute', args: { code: 'print(1)' } }] },
        { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
      ],
      'optional',
    );

    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(CAUSE);
    expect(result.error).toContain('The run ends here: `python_execute` was called after');
    expect(modelCalls).toBe(2);
    // the second call was answered without asking the engine again
    expect(attempts).toHaveLength(1);
    expect(calls.map((e) => e.name)).toEqual(['bash', 'python_execute']);
  });
});
