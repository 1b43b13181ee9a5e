/**
 * The built-in agents as definitions (issue 28): rendered, their prompts are byte for
 * byte the ones the agents always sent, and a user's copy of a built-in agent, built
 * from its definition, sends the requests the built-in agent sends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '@shared/domain/agent';
import { AGENT_BUILDERS, type AgentBuildInput } from '../catalog';
import { OpenAiLlm } from '../../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../../llm/testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
} from '../../llm/testing/scripted-openai-server';
import { reply } from '../../llm/testing/scripted-replies';
import { manusSystemPrompt, MANUS_NEXT_STEP_PROMPT } from '../prompts/manus';
import { sweSystemPrompt } from '../prompts/swe';
import { BROWSER_NEXT_STEP_PROMPT, BROWSER_SYSTEM_PROMPT } from '../prompts/browser';
import { MCP_NEXT_STEP_PROMPT } from '../prompts/mcp';
import { TOOLCALL_SYSTEM_PROMPT } from '../prompts/toolcall';
import { builtinDefinition, builtinDefinitionText } from './builtin-definitions';
import { buildDefinedAgent } from './build-defined-agent';
import { loadDefinitionText } from './load-definition';
import { renderTemplate, toolListValue } from './template';

let server: ScriptedOpenAiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The mcp agent's prompt as it was written before it became a template. */
function mcpPromptAsBefore(serverName: string, toolNames: readonly string[]): string {
  const listed = toolNames.length > 0 ? toolNames.map((n) => `- ${n}`).join('\n') : '- (none)';
  return `You are an agent that completes the user's task with the tools of the MCP server "${serverName}".

Its tools are available to you under these names:
${listed}

Call them with arguments that match their parameter schemas. Read each result before deciding the next call; if a call fails, use the error message to fix the arguments or try another tool rather than repeating the same call. When a tool returns an image, it is attached to the next user message for you to look at.

When the task is complete, state the result plainly in your reply and call the \`terminate\` tool with status "success" in that same reply. If it cannot be completed, explain why and call \`terminate\` with status "failure". Only \`terminate\` ends the task, even if the server offers a tool with a similar name.`;
}

describe('built-in definitions', () => {
  it('render to the prompts the built-in agents always had', () => {
    for (const workDir of ['/workspace', '/home/me/$1 {{tools}}']) {
      const v = { work_dir: workDir };
      expect(renderTemplate(builtinDefinition('manus').system_prompt, v)).toBe(
        manusSystemPrompt(workDir),
      );
      expect(renderTemplate(builtinDefinition('swe').system_prompt, v)).toBe(
        sweSystemPrompt(workDir),
      );
    }
    expect(builtinDefinition('manus').next_step_prompt).toBe(MANUS_NEXT_STEP_PROMPT);
    expect(builtinDefinition('swe').next_step_prompt).toBe('');
    expect(builtinDefinition('browser').system_prompt).toBe(BROWSER_SYSTEM_PROMPT);
    expect(builtinDefinition('browser').next_step_prompt).toBe(BROWSER_NEXT_STEP_PROMPT);
    expect(builtinDefinition('toolcall').system_prompt).toBe(TOOLCALL_SYSTEM_PROMPT);
    expect(builtinDefinition('mcp').next_step_prompt).toBe(MCP_NEXT_STEP_PROMPT);
    for (const names of [[], ['mcp_fs_read', 'mcp_fs_write']]) {
      expect(
        renderTemplate(builtinDefinition('mcp').system_prompt, {
          mcp_servers: 'fs',
          tools: toolListValue(names),
        }),
      ).toBe(mcpPromptAsBefore('fs', names));
    }
  });

  it('are valid definition files that load back to the same data', () => {
    for (const name of AGENT_NAMES) {
      const loaded = loadDefinitionText(builtinDefinitionText(name), name, { mcpServers: [] });
      expect(loaded.data).toEqual(builtinDefinition(name));
    }
  });

  it("a copy of toolcall built from its definition sends the built-in agent's requests", async () => {
    const bodies: unknown[][] = [];
    for (const build of ['builtin', 'copy'] as const) {
      const started = await startScriptedServer([
        reply.tool('create_chat_completion', { response: 'an answer' }),
        reply.terminate(),
      ]);
      server = started.server;
      const input: AgentBuildInput = {
        name: 'toolcall',
        llm: new OpenAiLlm(testProfile(started.baseUrl), { retry: FAST_RETRY }),
        settings: {
          maxSteps: 5,
          duplicateThreshold: 2,
          maxMessages: 100,
          maxObserve: 10_000,
          toolChoice: 'auto',
          textReplyPolicy: 'reprompt_once',
        },
        config: {
          mcp: { servers: {} },
          sandbox: { work_dir: '/workspace' },
          browser: { keep_screenshots: 3 },
        } as never,
        session: undefined as never,
        services: undefined as never,
        env: { emit: () => undefined, runId: 'run-copy' },
      };
      const built =
        build === 'builtin'
          ? await AGENT_BUILDERS.toolcall(input)
          : await buildDefinedAgent(
              input,
              loadDefinitionText(builtinDefinitionText('toolcall'), 'copy.toml', {
                mcpServers: [],
              }),
            );
      await built.agent.run('answer me');
      await built.dispose();
      bodies.push(server.requests.map((r) => r.body));
      await server.close();
      server = null;
    }
    expect(bodies[0]).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });
});
