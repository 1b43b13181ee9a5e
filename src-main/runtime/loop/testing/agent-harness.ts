/**
 * Runs a ToolCallAgent against the scripted OpenAI server through the real client, and
 * checks the invariants every run must keep (DESIGN section 2): each tool call has
 * exactly one tool.started, one tool.finished and one tool message; every step.started
 * has its step.finished. The server itself rejects any request whose tool messages are
 * not paired (OpenAI's 400), so a pairing bug fails the run loudly.
 */
import { z } from 'zod';
import type { Message } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { LlmProfile } from '../../config/schema';
import { OpenAiLlm } from '../../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../../llm/testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from '../../llm/testing/scripted-openai-server';
import { createTerminateTool } from '../../tools/terminate';
import { ok, type Tool } from '../../tools/tool';
import { ToolRegistry } from '../../tools/tool-registry';
import type { RunResult } from '@shared/domain/agent';
import { ToolCallAgent, type ToolCallAgentSettings } from '../toolcall-agent';

export interface Harness {
  agent: ToolCallAgent;
  server: ScriptedOpenAiServer;
  events: RunEventPayload[];
  /** calls the `echo` tool received, in order */
  echoed: string[];
  run(task?: string, signal?: AbortSignal): Promise<RunResult>;
  close(): Promise<void>;
  of<T extends RunEventPayload['type']>(type: T): Extract<RunEventPayload, { type: T }>[];
}

/** A tool that records its calls; `text` is required so argument errors are testable. */
export function echoTool(record: string[]): Tool<{ text: string }> {
  return {
    name: 'echo',
    description: 'Echoes the text back.',
    schema: z.object({ text: z.string().describe('what to echo') }).strict(),
    execute: async ({ text }) => {
      record.push(text);
      return ok(text);
    },
  };
}

export async function startHarness(
  script: ServerScript,
  options: {
    settings?: Partial<ToolCallAgentSettings>;
    profile?: Partial<LlmProfile>;
    tools?: Tool[];
  } = {},
): Promise<Harness> {
  const { server, baseUrl } = await startScriptedServer(script);
  const events: RunEventPayload[] = [];
  const echoed: string[] = [];
  const llm = new OpenAiLlm(testProfile(baseUrl, options.profile), { retry: FAST_RETRY });
  const tools = new ToolRegistry([
    echoTool(echoed),
    createTerminateTool(),
    ...(options.tools ?? []),
  ]);
  const agent = new ToolCallAgent(
    { name: 'toolcall', maxSteps: 10, ...options.settings },
    { llm, tools },
    { emit: (e) => events.push(e), runId: 'run-test' },
  );
  return {
    agent,
    server,
    events,
    echoed,
    run: (task = 'do the task', signal) =>
      agent.run(task, signal ? { signal } : {}).then((result) => {
        assertRunInvariants(events, agent.memory.messages);
        return result;
      }),
    close: () => server.close(),
    of: (type) => events.filter((e) => e.type === type) as never,
  };
}

/** The per-run contract of DESIGN section 2, as assertions. */
export function assertRunInvariants(events: RunEventPayload[], memory: Message[]): void {
  const started = new Map<string, number>();
  const finished = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'tool.started') started.set(e.toolCallId, (started.get(e.toolCallId) ?? 0) + 1);
    if (e.type === 'tool.finished') {
      if (!started.has(e.toolCallId))
        throw new Error(`tool.finished before tool.started: ${e.toolCallId}`);
      finished.set(e.toolCallId, (finished.get(e.toolCallId) ?? 0) + 1);
    }
  }
  const answered = new Map<string, number>();
  const requested: string[] = [];
  for (const e of events) {
    if (e.type !== 'memory.appended') continue;
    for (const call of e.message.tool_calls ?? []) requested.push(call.id);
    if (e.message.role === 'tool' && e.message.tool_call_id) {
      answered.set(e.message.tool_call_id, (answered.get(e.message.tool_call_id) ?? 0) + 1);
    }
  }
  for (const id of requested) {
    if (started.get(id) !== 1) throw new Error(`call ${id}: ${started.get(id) ?? 0} tool.started`);
    if (finished.get(id) !== 1)
      throw new Error(`call ${id}: ${finished.get(id) ?? 0} tool.finished`);
    if (answered.get(id) !== 1)
      throw new Error(`call ${id}: ${answered.get(id) ?? 0} tool messages`);
  }
  const steps = events.filter((e) => e.type === 'step.started').length;
  const stepEnds = events.filter((e) => e.type === 'step.finished').length;
  if (steps !== stepEnds) throw new Error(`${steps} step.started but ${stepEnds} step.finished`);
  void memory;
}

/** A tool call reply in the scripted server's format. */
export function call(name: string, args: unknown, content: string | null = null, id?: string) {
  return { content, toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }] };
}
