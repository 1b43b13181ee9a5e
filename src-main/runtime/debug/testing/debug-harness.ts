/**
 * A ToolCallAgent with a RunDebugger, against the scripted OpenAI server through the
 * real client: the debugger's tests drive pauses and edits and then read the server's
 * request log to see exactly what the next model request carried. Events go through
 * the debugger's observer as the RunManager does it, and every run is checked for the
 * pairing invariant (each call: one tool.started, one tool.finished, one tool message).
 */
import { z } from 'zod';
import type { RunEventPayload } from '@shared/events';
import type { RunResult } from '@shared/domain/agent';
import type { WireMessage } from '../../llm/testing/openai-wire';
import type { LlmProfile } from '../../config/schema';
import { OpenAiLlm } from '../../llm/openai-llm';
import { SwitchableLlm } from '../../llm/switchable-llm';
import { FAST_RETRY, testProfile } from '../../llm/testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from '../../llm/testing/scripted-openai-server';
import { assertRunInvariants, echoTool } from '../../loop/testing/agent-harness';
import { ToolCallAgent, type ToolCallAgentSettings } from '../../loop/toolcall-agent';
import { createTerminateTool } from '../../tools/terminate';
import { fail, ok, type Tool } from '../../tools/tool';
import { ToolRegistry } from '../../tools/tool-registry';
import { DebugError } from '../debug-error';
import { RunDebugger } from '../run-debugger';

export interface DebugHarness {
  agent: ToolCallAgent;
  debug: RunDebugger;
  server: ScriptedOpenAiServer;
  events: RunEventPayload[];
  /** texts the `echo` tool received, in order */
  echoed: string[];
  run(task?: string): Promise<RunResult>;
  /** the next `run.paused` (waits for it) */
  nextPause(): Promise<Extract<RunEventPayload, { type: 'run.paused' }>>;
  /** the messages of the n-th chat request the server answered (0-based) */
  request(n: number): WireMessage[];
  of<T extends RunEventPayload['type']>(type: T): Extract<RunEventPayload, { type: T }>[];
  stop(): void;
  close(): Promise<void>;
}

/** `shell` answers with the exit code it is given; `boom` always fails. */
const shellTool: Tool<{ exit: number }> = {
  name: 'shell',
  description: 'Exits with the given code.',
  schema: z.object({ exit: z.number().int() }).strict(),
  execute: async ({ exit }) => ok(`exited ${exit}`, { exitCode: exit }),
};
const boomTool: Tool<Record<string, never>> = {
  name: 'boom',
  description: 'Always fails.',
  schema: z.object({}).strict(),
  execute: async () => fail('it went boom'),
};

export async function startDebugHarness(
  script: ServerScript,
  options: {
    settings?: Partial<ToolCallAgentSettings>;
    profile?: Partial<LlmProfile>;
    breakpoints?: string[];
    approveTools?: string[];
  } = {},
): Promise<DebugHarness> {
  const { server, baseUrl } = await startScriptedServer(script);
  const events: RunEventPayload[] = [];
  const echoed: string[] = [];
  const waiters: ((e: Extract<RunEventPayload, { type: 'run.paused' }>) => void)[] = [];
  const paused: Extract<RunEventPayload, { type: 'run.paused' }>[] = [];
  const emit = (event: RunEventPayload) => {
    events.push(event);
    debug.observe(event);
    if (event.type === 'run.paused') {
      const waiter = waiters.shift();
      if (waiter) waiter(event);
      else paused.push(event);
    }
  };
  const debug = new RunDebugger(emit);
  const profile = testProfile(baseUrl, { maxRetries: 0, ...options.profile });
  const llm = new SwitchableLlm(new OpenAiLlm(profile, { retry: FAST_RETRY }));
  let current = profile;
  debug.registerModelSwitch('toolcall', {
    current: () => ({ model: llm.model, profile: current.name, temperature: current.temperature }),
    change: (to) => {
      if (to.profile !== undefined && to.profile !== 'default' && to.profile !== 'other')
        throw new DebugError('invalid_input', `There is no profile [llm.${to.profile}]`);
      current = {
        ...current,
        ...(to.profile === 'other' ? { name: 'other', model: 'gpt-other' } : {}),
        ...(to.temperature !== undefined ? { temperature: to.temperature } : {}),
      };
      llm.switchTo(new OpenAiLlm(current, { retry: FAST_RETRY }));
      return { model: current.model, profile: current.name, temperature: current.temperature };
    },
  });
  debug.setPricing({
    priceOf: (model) => (model.startsWith('gpt-test') ? { input: 1000, output: 1000 } : undefined),
    models: [profile.model],
  });
  debug.addBreakpoints(options.breakpoints ?? [], 'ui');
  debug.addApprovals(options.approveTools ?? [], 'ui');
  const tools = new ToolRegistry([echoTool(echoed), shellTool, boomTool, createTerminateTool()]);
  const agent = new ToolCallAgent(
    { name: 'toolcall', maxSteps: 10, ...options.settings },
    { llm, tools },
    { emit, runId: 'run-debug', debug },
  );
  const controller = new AbortController();
  return {
    agent,
    debug,
    server,
    events,
    echoed,
    run: (task = 'do the task') => {
      debug.announce();
      return agent.run(task, { signal: controller.signal }).then((result) => {
        assertRunInvariants(events, agent.memory.messages);
        return result;
      });
    },
    nextPause: () => {
      const ready = paused.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => waiters.push(resolve));
    },
    request: (n) => {
      const answered = server.answered[n];
      if (!answered)
        throw new Error(`no answered request #${n} (${server.answered.length} so far)`);
      return answered.messages;
    },
    of: (type) => events.filter((e) => e.type === type) as never,
    stop: () => controller.abort(),
    close: () => server.close(),
  };
}

/** A tool call reply in the scripted server's format, with a fixed id. */
export function callReply(name: string, args: unknown, id: string, content: string | null = null) {
  return { content, toolCalls: [{ id, name, arguments: args }] };
}

export const terminateReply = (id = 'call_end') =>
  callReply('terminate', { status: 'success' }, id, 'done');
