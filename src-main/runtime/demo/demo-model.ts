/**
 * The built-in demo model: used when no API key is configured, so a new user sees a real
 * run (events, steps, tool calls, state changes) on first start. It is a scripted model,
 * and says so in its replies.
 */
import type { ChatRequest } from '../llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';

export const DEMO_MODEL_NAME = 'demo (built-in, no API key set)';

export function createDemoLlm(options: { delayMs?: number } = {}): ScriptedLlm {
  const fromEnv = Number(process.env['WORKBENCH_DEMO_DELAY_MS']);
  const delayMs = options.delayMs ?? (Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : 300);
  return new ScriptedLlm((request, callIndex) => demoReply(request, callIndex, delayMs), {
    model: DEMO_MODEL_NAME,
    recordRequests: false,
  });
}

function demoReply(request: ChatRequest, callIndex: number, delayMs: number): ScriptedReply {
  const task = request.messages.find((m) => m.role === 'user')?.content ?? '';
  if (callIndex === 0) {
    return {
      delayMs,
      content:
        `This is the built-in demo model (no API key is configured). I received the task: "${truncate(task, 200)}". ` +
        'Set an API key in the model settings to run a real model.',
    };
  }
  return {
    delayMs,
    content: 'The demo is complete; finishing the run.',
    toolCalls: [{ name: 'terminate', args: { status: 'success' } }],
  };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
