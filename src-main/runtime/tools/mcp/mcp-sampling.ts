/**
 * MCP sampling (`sampling/createMessage`): a server asks the client's model for a
 * completion. It goes to the server's `sampling_profile` (the run's own model when none
 * is set), is shown in the run as a model call (`llm.requested` with `sampledBy`, then
 * `llm.responded`) and pauses in the debugger like one (point `sampling`). Text and
 * images of the request's messages are sent; the model's text is the answer.
 */
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { Message } from '@shared/domain/message';
import { recordedCall } from '../../llm/recorded-call';
import type { Routed } from './mcp-run-host';

type SamplingParams = CreateMessageRequest['params'];
type SamplingMessage = SamplingParams['messages'][number];

export interface SamplingContext {
  server: string;
  profile: string | undefined;
  routed: Routed;
  /** the server cancelled the request (or the connection closed) */
  signal: AbortSignal;
}

export async function answerSampling(
  params: SamplingParams,
  ctx: SamplingContext,
): Promise<CreateMessageResult> {
  const { host, call } = ctx.routed;
  const agent = call?.agent ?? host.agent;
  const step = call?.step ?? 0;
  const signal = AbortSignal.any(
    [ctx.signal, call?.signal ?? host.signal].filter((s): s is AbortSignal => s !== undefined),
  );
  const llm = host.llmFor(ctx.profile);
  const messages: Message[] = [
    ...(params.systemPrompt ? [{ role: 'system' as const, content: params.systemPrompt }] : []),
    ...params.messages.map(toMessage),
  ];
  // Paused like a model call of the agent: a pause requested, a step, a breakpoint due.
  const wait = host.pause?.(agent, signal);
  if (wait) await wait;
  const response = await recordedCall(messages, {
    llm,
    signal,
    agent,
    step,
    emit: (event) => host.emit(event),
    extra: { sampledBy: ctx.server },
  });
  return {
    role: 'assistant',
    content: { type: 'text', text: response.content ?? '' },
    model: response.model,
    stopReason: stopReason(response.finishReason),
  };
}

function toMessage(message: SamplingMessage): Message {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  const texts: string[] = [];
  let image: Message['image'];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image' && !image) image = { mimeType: part.mimeType, data: part.data };
    else texts.push(`[${part.type} content not sent to the model]`);
  }
  return {
    role: message.role,
    content: texts.join('\n'),
    ...(image ? { image } : {}),
  };
}

function stopReason(finishReason: string): string {
  if (finishReason === 'stop') return 'endTurn';
  if (finishReason === 'length') return 'maxTokens';
  return finishReason;
}
