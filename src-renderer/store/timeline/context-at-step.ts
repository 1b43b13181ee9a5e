/**
 * "Context at this step": the messages the model received for a step's request,
 * derived from the timeline: the system prompt the request carried (`llm.requested`
 * reports it when it changes), every memory message of that agent appended before the
 * request minus those a `memory.truncated` had dropped by then, and the stuck nudge the
 * request carried after memory (never stored). What is still unaccounted for in the
 * request's own `messageCount` is reported as `notInMemory`.
 */
import type { Role, ToolCall } from '@shared/domain/message';
import { estimateTokens } from './tokens';
import type { ContentEdit, StepItem, TimelineModel } from './types';
import { positionOfId } from './model';

export interface ContextMessage {
  itemId: number;
  memoryIndex: number;
  role: Role;
  content: string | null;
  toolCalls?: ToolCall[];
  name?: string;
  /** for a tool message: the call it answers */
  toolCallId?: string;
  /** estimated tokens (the UI has no tokenizer; the model's own count is `promptTokens`) */
  tokens: number;
}

export interface StepContext {
  agent: string;
  step: number;
  requestSeq: number;
  model: string;
  messages: ContextMessage[];
  estimatedTokens: number;
  /** what the runtime said it sent */
  messageCount: number;
  inputTokens: number;
  /** what the model counted (the step's usage), when it answered */
  promptTokens?: number;
  /** the stuck marker whose nudge this request carried (after the memory messages) */
  nudgedBy?: number;
  /** the system prompt sent in front of memory */
  system?: string;
  /** the nudge text sent after memory */
  nudge?: string;
  /** other messages in the request that memory does not show (the system prompt) */
  notInMemory: number;
  /** memory messages of this agent the model no longer saw at this point */
  droppedEarlier: number;
}

export function contextAtStep(model: TimelineModel, step: StepItem): StepContext | null {
  const request = step.request;
  if (!request) return null;
  const end = positionOfId(model.items, step.id);
  if (end < 0) return null;
  const messages: ContextMessage[] = [];
  let droppedEarlier = 0;
  // Items before the step header were appended before its request; so were the step's
  // own items up to the request (the next-step prompt). Stop at the first item created
  // at or after the request.
  for (const item of model.items) {
    if (item.id >= request.seq) break;
    if (item.agent !== step.agent) continue;
    if (item.kind === 'message') {
      if (item.droppedAtSeq !== undefined && item.droppedAtSeq < request.seq) {
        droppedEarlier++;
        continue;
      }
      const content = contentAt(item.content, item.edits, request.seq);
      messages.push({
        itemId: item.id,
        memoryIndex: item.memoryIndex,
        role: item.role,
        content,
        ...(item.toolCalls ? { toolCalls: item.toolCalls } : {}),
        ...(item.name ? { name: item.name } : {}),
        ...(item.toolCallId !== undefined ? { toolCallId: item.toolCallId } : {}),
        tokens: estimateTokens(content, item.toolCalls),
      });
    } else if (item.kind === 'tool' && item.memoryIndex !== undefined) {
      if (item.droppedAtSeq !== undefined && item.droppedAtSeq < request.seq) {
        droppedEarlier++;
        continue;
      }
      const content = contentAt(item.observation ?? '', item.edits, request.seq) ?? '';
      messages.push({
        itemId: item.id,
        memoryIndex: item.memoryIndex,
        role: 'tool',
        content,
        name: item.name,
        toolCallId: item.toolCallId,
        tokens: estimateTokens(content),
      });
    }
  }
  messages.sort((a, b) => a.memoryIndex - b.memoryIndex);
  return {
    agent: step.agent,
    step: step.step,
    requestSeq: request.seq,
    model: request.model,
    messages,
    estimatedTokens: messages.reduce((sum, m) => sum + m.tokens, 0),
    messageCount: request.messageCount,
    inputTokens: request.inputTokens,
    ...(step.usage ? { promptTokens: step.usage.prompt } : {}),
    ...(step.nudgedBy !== undefined ? { nudgedBy: step.nudgedBy } : {}),
    ...(request.system !== undefined ? { system: request.system } : {}),
    ...(request.nudge !== undefined ? { nudge: request.nudge } : {}),
    notInMemory: Math.max(
      0,
      request.messageCount -
        messages.length -
        (request.system !== undefined ? 1 : 0) -
        (request.nudge !== undefined || step.nudgedBy !== undefined ? 1 : 0),
    ),
    droppedEarlier,
  };
}

/** A message's text as a request at `seq` carried it: edits made later are undone. */
function contentAt(
  current: string | null,
  edits: readonly ContentEdit[] | undefined,
  seq: number,
): string | null {
  const later = edits?.find((e) => e.seq > seq);
  return later ? later.before : current;
}
