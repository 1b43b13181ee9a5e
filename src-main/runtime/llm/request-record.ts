/**
 * What `llm.requested` records of a request beyond its messages: the sampling parameters,
 * tool_choice and the tool list. The list (names, descriptions, JSON schemas: several KB)
 * goes by reference: its hash in every event, the list itself only when it differs from
 * the previous request this recorder saw, so a long run does not grow by the schemas in
 * every step.
 */
import { createHash } from 'node:crypto';
import type { EventMessage, LlmRequestedEvent } from '@shared/events';
import type { Message } from '@shared/domain/message';
import type { ChatRequest, LlmClient, ToolSpec } from './llm-client';

export type RecordedRequestFields = Pick<
  LlmRequestedEvent,
  'params' | 'toolChoice' | 'toolsHash' | 'tools'
>;

/** One per agent (or per planner): it remembers the last tool list it reported. */
export class RequestRecorder {
  private lastHash: string | undefined;
  /** the hash of the last list seen, by identity: registries hand out one cached array */
  private hashed: { tools: readonly ToolSpec[]; hash: string } | undefined;

  fields(request: ChatRequest, llm: LlmClient): RecordedRequestFields {
    const params = llm.requestParams?.();
    const tools = request.tools ?? [];
    const out: RecordedRequestFields = params ? { params } : {};
    // The client sends tool_choice only with tools (openai-llm.ts #body).
    if (tools.length === 0) return out;
    out.toolChoice = request.toolChoice ?? 'auto';
    const hash = this.hashOf(tools);
    out.toolsHash = hash;
    if (hash !== this.lastHash) out.tools = tools.map((t) => ({ ...t }));
    this.lastHash = hash;
    return out;
  }

  private hashOf(tools: readonly ToolSpec[]): string {
    if (this.hashed?.tools === tools) return this.hashed.hash;
    const hash = createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16);
    this.hashed = { tools, hash };
    return hash;
  }
}

/** The messages of a request not built from memory (planner, page extraction), as events carry them. */
export function eventMessagesOf(messages: readonly Message[]): EventMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.tool_calls && m.tool_calls.length > 0 ? { tool_calls: m.tool_calls } : {}),
    ...(m.tool_call_id !== undefined ? { tool_call_id: m.tool_call_id } : {}),
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.image ? { imageMimeType: m.image.mimeType } : {}),
  }));
}
