/**
 * A rough token estimate for display (about four characters per token, plus the
 * per-message overhead of the chat format). The UI says "≈" next to it; exact counts
 * come from the model's own usage figures.
 */
import type { ToolCall } from '@shared/domain/message';

const MESSAGE_OVERHEAD = 4;

export function estimateTokens(content: string | null, toolCalls?: readonly ToolCall[]): number {
  let chars = content?.length ?? 0;
  for (const call of toolCalls ?? [])
    chars += call.function.name.length + call.function.arguments.length;
  return MESSAGE_OVERHEAD + Math.ceil(chars / 4);
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}
