/**
 * A model call made outside an agent's loop (a browser page extraction, an MCP server's
 * sampling request), shown in the run as the agents' calls are: `llm.requested` with the
 * exact messages sent, the retries and waits for the profile, then `llm.responded`.
 */
import type { LlmRequestedEvent, RunEventPayload } from '@shared/events';
import type { Message } from '@shared/domain/message';
import type { ChatResponse, LlmClient } from './llm-client';
import { eventMessagesOf, RequestRecorder } from './request-record';
import { respondedEvent } from './responded-event';

export interface RecordedCallContext {
  llm: LlmClient;
  signal: AbortSignal;
  agent: string;
  step: number;
  emit: (event: RunEventPayload) => void;
  /** more of `llm.requested` (`sampledBy`) */
  extra?: Pick<LlmRequestedEvent, 'sampledBy'>;
}

export async function recordedCall(
  messages: Message[],
  ctx: RecordedCallContext,
): Promise<ChatResponse> {
  const started = performance.now();
  const request = { messages };
  ctx.emit({
    type: 'llm.requested',
    agent: ctx.agent,
    step: ctx.step,
    model: ctx.llm.model,
    messageCount: messages.length,
    inputTokens: 0,
    ...new RequestRecorder().fields(request, ctx.llm),
    // built here, not from a memory: recorded as sent
    messages: eventMessagesOf(messages),
    ...ctx.extra,
  });
  // A call of the profile like the agent's own: the gate's waits and the retries show.
  const response = await ctx.llm.complete(request, {
    signal: ctx.signal,
    onRetry: (notice) =>
      ctx.emit({ type: 'llm.retried', agent: ctx.agent, step: ctx.step, ...notice }),
    onQueued: (notice) =>
      ctx.emit({
        type: 'llm.queued',
        agent: ctx.agent,
        step: ctx.step,
        model: ctx.llm.model,
        ...notice,
      }),
  });
  ctx.emit(respondedEvent(ctx.agent, ctx.step, response, started));
  return response;
}
