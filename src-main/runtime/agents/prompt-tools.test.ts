/**
 * Every tool a prompt names is one the model can call with that very request (issue 16
 * item 3: Manus's prompt named `browser_use`, which does not exist here; a model that
 * followed it got "Unknown tool"). Each catalog agent and a PlanningFlow run through the
 * real runtime against the scripted server, and every request it records is checked: the
 * tool-like names in its system and user prompts (snake_case words and `backticked`
 * names) must be among the tools declared in that request, or a parameter or value of
 * one of them (the browser's actions, the planning tool's commands).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '@shared/domain/agent';
import { OpenAiLlm } from '../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../llm/testing/profiles';
import {
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServerReply,
} from '../llm/testing/scripted-openai-server';
import { createRuntime, type Runtime } from '../runtime';
import { stdioServerSettings } from '../tools/mcp/testing/test-mcp-process';

const TASK = 'Check the prompts.';

interface DeclaredTool {
  function: { name: string; parameters?: unknown };
}

/** Tool names, property names and enum values of a request's tool declarations. */
function vocabulary(request: RecordedRequest): { tools: Set<string>; words: Set<string> } {
  const tools = new Set<string>();
  const words = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const name of Object.keys(value)) words.add(name);
      }
      if (key === 'enum' && Array.isArray(value)) {
        for (const item of value) if (typeof item === 'string') words.add(item);
      }
      walk(value);
    }
  };
  for (const tool of (request.tools ?? []) as DeclaredTool[]) {
    tools.add(tool.function.name);
    walk(tool.function.parameters);
  }
  return { tools, words };
}

/** The prompt text of a request: system messages and user messages other than the task. */
function promptText(request: RecordedRequest): string {
  return request.messages
    .filter((m) => (m.role === 'system' || m.role === 'user') && typeof m.content === 'string')
    .map((m) => m.content as string)
    .filter((text) => text !== TASK)
    .join('\n');
}

/** Words of a prompt that name a tool (or a parameter or value of one). */
export function namedTools(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)) names.add(match[0]);
  for (const match of text.matchAll(/`([a-z][a-z0-9_-]*)`/g)) names.add(match[1]!);
  return [...names];
}

function problems(request: RecordedRequest): string[] {
  const { tools, words } = vocabulary(request);
  return namedTools(promptText(request))
    .filter((name) => !tools.has(name) && !words.has(name))
    .map((name) => `"${name}" (tools: ${[...tools].join(', ')})`);
}

/** Plans one step for the planner, finishes the plan in executors, terminates otherwise. */
function script(request: RecordedRequest): ScriptedServerReply {
  const declared = new Set(((request.tools ?? []) as DeclaredTool[]).map((t) => t.function.name));
  const answered = request.messages.some((m) => m.role === 'tool');
  if (declared.has('planning') && !declared.has('terminate') && !answered) {
    return {
      toolCalls: [
        {
          name: 'planning',
          arguments: { command: 'create', title: 'Check', steps: ['check the prompts'] },
        },
      ],
    };
  }
  if (declared.has('finish_plan')) {
    return { toolCalls: [{ name: 'finish_plan', arguments: { summary: 'done' } }] };
  }
  return { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
}

const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

describe('the tools a prompt names exist', () => {
  it('finds tool names in prompt text', () => {
    expect(namedTools('Use browser_use, the `bash` tool and the next tool.').sort()).toEqual([
      'bash',
      'browser_use',
    ]);
  });

  it('holds for every request of every agent and of PlanningFlow', async () => {
    const { server, baseUrl } = await startScriptedServer(script);
    const home = mkdtempSync(join(tmpdir(), 'wb-prompts-'));
    const runtime = createRuntime({
      home,
      createLlm: (profile) =>
        new OpenAiLlm(testProfile(baseUrl, { name: profile.name }), { retry: FAST_RETRY }),
    });
    runtimes.push(runtime);
    // The mcp agent needs a server: the project's test MCP server, over stdio.
    const mcp = stdioServerSettings();
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\napi_key = "sk-test-prompts"\n[sandbox]\nuse_sandbox = false\n` +
        `[mcp.servers.tests]\ntype = "stdio"\ncommand = ${JSON.stringify(mcp.command)}\nargs = ${JSON.stringify(mcp.args)}\n`,
    );
    try {
      for (const agent of AGENT_NAMES) {
        const result = await runtime.runs.start({ task: TASK, agent }).done;
        expect(result.outcome, `${agent}: ${result.error ?? ''}`).toBe('finished');
      }
      const flow = await runtime.runs.start({ task: TASK, agent: 'manus', flow: 'planning' }).done;
      expect(flow.outcome, flow.error).toBe('finished');
      expect(server.requests.length).toBeGreaterThanOrEqual(AGENT_NAMES.length + 2);
      const found = server.requests.flatMap((r) =>
        problems(r).map((p) => `request ${r.index}: ${p}`),
      );
      expect(found).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});
