/**
 * An in-process model that answers from a script. Used by unit tests, benchmarks and the
 * built-in demo. A script is a list of replies (consumed in order) or a function of the
 * request, so tests can react to what the agent sent.
 */
import type { ToolCall } from '@shared/domain/message';
import type { ChatOptions, ChatRequest, ChatResponse, LlmClient } from './llm-client';
import { abortError, abortableSleep } from '../util/abort';
import { countRequestTokens, countTextTokens } from './token-count';

export interface ScriptedReply {
  content?: string | null;
  toolCalls?: { name: string; args: unknown; id?: string }[];
  finishReason?: string;
  /** simulated latency before the reply, honouring the abort signal */
  delayMs?: number;
}

export type Script = ScriptedReply[] | ((request: ChatRequest, callIndex: number) => ScriptedReply);

export class ScriptedLlm implements LlmClient {
  readonly model: string;
  private calls = 0;
  readonly requests: ChatRequest[] = [];

  constructor(
    private readonly script: Script,
    options: { model?: string; recordRequests?: boolean } = {},
  ) {
    this.model = options.model ?? 'scripted';
    this.recordRequests = options.recordRequests ?? true;
  }
  private readonly recordRequests: boolean;

  get callCount(): number {
    return this.calls;
  }

  countTokens(request: ChatRequest): number {
    return countRequestTokens(request);
  }

  async complete(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const index = this.calls++;
    if (this.recordRequests) this.requests.push(request);
    const reply = this.replyFor(request, index);
    if (reply.delayMs) await abortableSleep(reply.delayMs, options.signal);
    if (options.signal?.aborted) throw abortError(options.signal);
    const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${index + 1}_${i + 1}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
      },
    }));
    const content = reply.content ?? null;
    if (content && options.onDelta) options.onDelta(content);
    return {
      content,
      toolCalls,
      finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      usage: {
        prompt: countRequestTokens(request),
        completion: countTextTokens(content ?? ''),
      },
      model: this.model,
    };
  }

  private replyFor(request: ChatRequest, index: number): ScriptedReply {
    if (typeof this.script === 'function') return this.script(request, index);
    const reply = this.script[index];
    if (!reply) {
      throw new Error(
        `ScriptedLlm: the script has ${this.script.length} replies, call ${index + 1} asked for more`,
      );
    }
    return reply;
  }
}
