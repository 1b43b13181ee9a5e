/** Chat roles, as in OpenManus's schema.Role and the OpenAI chat protocol. */
export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
export type Role = (typeof ROLES)[number];

/** One function call requested by the model (OpenAI `tool_calls[i]`). */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An image attached to a user message (screenshots, MCP image content). */
export interface MessageImage {
  mimeType: string;
  /** base64 without the data: prefix */
  data: string;
}

/**
 * A memory message. `content` may be null for an assistant message that only calls tools.
 * Images live only on user messages: OpenAI rejects images on tool messages
 * (openmanus.md 7.2 item 4), so a tool's screenshot becomes a following user message.
 */
export interface Message {
  role: Role;
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  image?: MessageImage;
}
