/**
 * Without a Docker engine (DOCKER_HOST at a socket that does not exist), an agent whose
 * tools need the sandbox still runs to a clean end: each call gets an error observation
 * that says what to do, the model can finish, nothing throws out of the run.
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
import { sandboxToolset } from './sandbox-toolset';

describe('sandbox tools without Docker', () => {
  it('turn into error observations that say what to do, and the run ends cleanly', async () => {
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
    });
    const llm = new ScriptedLlm([
      {
        toolCalls: [
          { name: 'bash', args: { command: 'ls' } },
          { name: 'python_execute', args: { code: 'print(1)' } },
          { name: 'str_replace_editor', args: { command: 'view', path: '/workspace' } },
        ],
      },
      { toolCalls: [{ name: 'terminate', args: { status: 'failure' } }] },
    ]);
    const tools = new ToolRegistry([...toolset.tools, createTerminateTool()]);
    const agent = new ToolCallAgent(
      { name: 'swe', maxSteps: 5 },
      { llm, tools },
      { emit, runId: 'r1' },
    );
    const result = await agent.run('list the files');
    await tools.dispose();
    await toolset.dispose();
    await manager.dispose();

    expect(result).toMatchObject({
      outcome: 'finished',
      state: 'FINISHED',
      terminateStatus: 'failure',
    });
    const finished = events.filter(
      (e): e is Extract<RunEventPayload, { type: 'tool.finished' }> =>
        e.type === 'tool.finished' && e.name !== 'terminate',
    );
    expect(finished.map((e) => e.name)).toEqual(['bash', 'python_execute', 'str_replace_editor']);
    for (const event of finished) {
      expect(event.ok).toBe(false);
      expect(event.error).toMatch(/^Docker is unavailable, so the sandbox tools cannot run\./);
      expect(event.error).toMatch(/nonexistent\/docker\.sock/);
    }
    const sandboxEvents = events.filter((e) => e.type === 'sandbox.changed');
    expect(sandboxEvents.some((e) => e.status === 'failed')).toBe(true);
  });
});
