/**
 * A step's model request in full, for the inspector (issue 17 item 2): the messages
 * ("context at this step", or those the request recorded itself), the tool list it
 * offered (resolved by hash), tool_choice, the sampling parameters, and the request's
 * JSON body as the client sent it (src-shared/model-request.ts). Also the step whose
 * request came before (for the diff) and the one token figure, with how it was made.
 */
import type { EventMessage, RequestTool } from '@shared/events';
import { requestBody } from '@shared/model-request';
import { contextAtStep, type StepContext } from './context-at-step';
import { positionOfId } from './model';
import { estimateTokens } from './tokens';
import type { StepItem, TimelineModel } from './types';

export interface StepRequest {
  context: StepContext;
  /** the messages in the order sent */
  messages: EventMessage[];
  /** whether the messages were recorded with the request (not rebuilt from memory) */
  isRecorded: boolean;
  tools?: RequestTool[];
  /** the request named a tool list the history does not hold */
  isToolListMissing: boolean;
  body: Record<string, unknown>;
}

export function stepRequest(model: TimelineModel, step: StepItem): StepRequest | null {
  const context = contextAtStep(model, step);
  const request = step.request;
  if (!context || !request) return null;
  const messages: EventMessage[] = request.messages ?? [
    ...(context.system !== undefined ? [{ role: 'system' as const, content: context.system }] : []),
    ...context.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.toolCalls ? { tool_calls: m.toolCalls } : {}),
      ...(m.toolCallId !== undefined ? { tool_call_id: m.toolCallId } : {}),
    })),
    ...(context.nudge !== undefined ? [{ role: 'user' as const, content: context.nudge }] : []),
  ];
  const tools = request.toolsHash !== undefined ? model.requestTools[request.toolsHash] : undefined;
  return {
    context,
    messages,
    isRecorded: request.messages !== undefined,
    ...(tools ? { tools } : {}),
    isToolListMissing: request.toolsHash !== undefined && !tools,
    body: requestBody({
      model: request.model,
      messages,
      ...(tools ? { tools } : {}),
      ...(request.toolChoice ? { toolChoice: request.toolChoice } : {}),
      ...(request.params ? { params: request.params } : {}),
    }),
  };
}

/** The latest step of the same agent before `step` that made a model request. */
export function previousRequestStep(model: TimelineModel, step: StepItem): StepItem | undefined {
  for (let i = positionOfId(model.items, step.id) - 1; i >= 0; i--) {
    const item = model.items[i];
    if (item?.kind === 'step' && item.agent === step.agent && item.request) return item;
  }
  return undefined;
}

export interface TokenFigure {
  tokens: number;
  isEstimate: boolean;
  /** who counted, and how */
  how: string;
}

/** One prompt-token figure for the step: the provider's count when there is one. */
export function tokenFigure(step: StepItem, request: StepRequest): TokenFigure {
  if (step.usage) {
    if (step.usageSource === 'o200k') {
      return {
        tokens: step.usage.prompt,
        isEstimate: true,
        how: 'counted by the runtime with the o200k tokenizer: the provider reported no usage',
      };
    }
    return {
      tokens: step.usage.prompt,
      isEstimate: false,
      how:
        step.usageSource === 'provider'
          ? "the provider's count (usage.prompt_tokens of its reply)"
          : "from the reply's usage (the provider's count; this older run does not say whether the runtime counted instead)",
    };
  }
  const input = step.request?.inputTokens ?? 0;
  if (input > 0) {
    return {
      tokens: input,
      isEstimate: true,
      how: "the runtime's estimate before sending (text split as the tokenizer would, scaled by the provider's earlier counts); the provider has not answered",
    };
  }
  const estimate =
    request.messages.reduce((sum, m) => sum + estimateTokens(m.content, m.tool_calls), 0) +
    (request.tools ? estimateTokens(JSON.stringify(request.tools)) : 0);
  return {
    tokens: estimate,
    isEstimate: true,
    how: 'counted here: characters ÷ 4, plus 4 per message; the provider has not answered',
  };
}

/** How far after its step header the step's reply may be looked for (other agents interleave). */
const RESPONSE_SCAN = 2_000;

/** The step's reply as the client received it: the assistant message and its `llm.responded`. */
export function stepResponse(
  model: TimelineModel,
  step: StepItem,
): Record<string, unknown> | undefined {
  const start = positionOfId(model.items, step.id);
  for (let i = start + 1; i < model.items.length && i <= start + RESPONSE_SCAN; i++) {
    const item = model.items[i];
    if (item?.kind === 'step' && item.agent === step.agent) return undefined;
    if (item?.kind !== 'message' || item.stepId !== step.id || item.role !== 'assistant') continue;
    return {
      ...(item.response ? { model: item.response.model } : {}),
      content: item.content,
      ...(item.toolCalls ? { tool_calls: item.toolCalls } : {}),
      ...(item.response
        ? {
            finish_reason: item.response.finishReason,
            usage: {
              prompt_tokens: item.response.usage.prompt,
              completion_tokens: item.response.usage.completion,
            },
            duration_ms: item.response.durationMs,
          }
        : {}),
    };
  }
  return undefined;
}
