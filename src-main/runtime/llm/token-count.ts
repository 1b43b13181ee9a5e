/**
 * Token counting for the per-request context guard (`max_input_tokens`) and for usage
 * when a provider reports none. Uses the o200k_base BPE (GPT-4o and later) from
 * js-tiktoken, a pure-JS tokenizer. For other model families the count is an estimate
 * within a few percent, which is what a guard needs: it is there to fail fast with a
 * clear message instead of a provider 400, not to bill.
 *
 * Message framing follows OpenAI's published rule (4 tokens per message, 3 to prime the
 * reply); tool declarations are counted from their JSON; an image costs a flat 765
 * tokens (a 1024x1024 image at high detail). Counts are cached per message object, so
 * a step only tokenizes the messages that are new.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Message } from '@shared/domain/message';
import type { ChatRequest, ToolSpec } from './llm-client';

const PER_MESSAGE = 4;
const REPLY_PRIMING = 3;
const IMAGE_TOKENS = 765;
/**
 * js-tiktoken's BPE is quadratic in the length of one pre-tokenized piece, and a long run
 * of letters or of punctuation is one piece (800 'x' take ~50 ms, 1 MB would take
 * minutes). Such runs are estimated at 4 characters a token (an over-estimate, the safe
 * side for a guard) and the rest is encoded normally.
 */
const LONG_RUN = /\p{L}{64,}|[^\s\p{L}\p{N}]{64,}/gu;

let encoder: Tiktoken | null = null;
function getEncoder(): Tiktoken {
  encoder ??= new Tiktoken(o200kBase);
  return encoder;
}

export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  let estimated = 0;
  const rest = text.replace(LONG_RUN, (run) => {
    estimated += Math.ceil(run.length / 4);
    return ' ';
  });
  return estimated + getEncoder().encode(rest).length;
}

const messageCache = new WeakMap<Message, number>();

export function countMessageTokens(message: Message): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  let tokens = PER_MESSAGE + countTextTokens(message.content ?? '');
  if (message.name) tokens += countTextTokens(message.name);
  for (const call of message.tool_calls ?? []) {
    tokens += countTextTokens(call.function.name) + countTextTokens(call.function.arguments) + 3;
  }
  if (message.image) tokens += IMAGE_TOKENS;
  messageCache.set(message, tokens);
  return tokens;
}

const toolsCache = new WeakMap<ToolSpec[], number>();

export function countToolTokens(tools: ToolSpec[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  const cached = toolsCache.get(tools);
  if (cached !== undefined) return cached;
  const tokens = countTextTokens(JSON.stringify(tools));
  toolsCache.set(tools, tokens);
  return tokens;
}

/** Input tokens of a whole request: its messages, their framing and the tool declarations. */
export function countRequestTokens(request: ChatRequest): number {
  let total = REPLY_PRIMING + countToolTokens(request.tools);
  for (const message of request.messages) total += countMessageTokens(message);
  return total;
}
