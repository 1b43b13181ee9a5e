/**
 * Token counts without a tokenizer table. The o200k BPE (token-count.ts) takes 1.4-1.65 s
 * and 144 MiB to build (issue 16 item 7), and a provider that reports usage makes it
 * unneeded for accounting. This estimates from the text's pieces as a BPE splits them
 * (letter runs, digit runs, punctuation, CJK characters), within about 20 % of o200k on
 * prose, code, JSON, HTML and Chinese; `TokenCalibration` then scales it by what the
 * provider reported for the previous request of the same conversation.
 */
import type { Message } from '@shared/domain/message';
import type { ChatRequest, ToolSpec } from './llm-client';

const PER_MESSAGE = 4;
const REPLY_PRIMING = 3;
const IMAGE_TOKENS = 765;

// One alternative per kind of piece; CJK first so it is not taken as letters.
const PIECES =
  /(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul})|(\p{L}+)|(\p{N}+)|([^\s\p{L}\p{N}]+)|(\n+)/gu;

export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  let tokens = 0;
  for (const m of text.matchAll(PIECES)) {
    if (m[1]) tokens += 0.75;
    else if (m[2]) tokens += letterRunTokens(m[2]);
    else if (m[3]) tokens += Math.ceil(m[3].length / 3);
    else if (m[4]) tokens += Math.ceil(m[4].length / 2);
    else tokens += 1;
  }
  return Math.ceil(tokens);
}

/**
 * Words are about one token each (a long one a few); a run whose letter case keeps
 * changing (base64, identifiers glued together, random ids) splits far more finely.
 */
function letterRunTokens(run: string): number {
  let switches = 0;
  for (let i = 1; i < run.length; i++) {
    const upper = run[i] !== run[i]!.toLowerCase();
    const wasUpper = run[i - 1] !== run[i - 1]!.toLowerCase();
    if (upper !== wasUpper) switches++;
  }
  const perToken = switches * 4 > run.length ? 2.5 : 6;
  return Math.max(1, Math.ceil(run.length / perToken));
}

const messageCache = new WeakMap<Message, number>();

export function estimateMessageTokens(message: Message): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  let tokens = PER_MESSAGE + estimateTextTokens(message.content ?? '');
  if (message.name) tokens += estimateTextTokens(message.name);
  for (const call of message.tool_calls ?? []) {
    tokens +=
      estimateTextTokens(call.function.name) + estimateTextTokens(call.function.arguments) + 3;
  }
  if (message.image) tokens += IMAGE_TOKENS;
  messageCache.set(message, tokens);
  return tokens;
}

const toolsCache = new WeakMap<ToolSpec[], number>();

function estimateToolTokens(tools: ToolSpec[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  const cached = toolsCache.get(tools);
  if (cached !== undefined) return cached;
  const tokens = estimateTextTokens(JSON.stringify(tools));
  toolsCache.set(tools, tokens);
  return tokens;
}

interface RequestEstimate {
  length: number;
  last: Message | undefined;
  tools: ToolSpec[] | undefined;
  total: number;
}

/**
 * A step estimates the same request three times (the `max_input_tokens` check before the
 * call, the calibration on the reported usage after it, the agent's own count): the
 * total is kept with the messages array it was made from, and used again while that
 * array still has the same length, last message and tools. A new step builds a new
 * array (toolcall-agent.ts requestMessages), so it is walked once a step, not three times.
 */
const requestCache = new WeakMap<readonly Message[], RequestEstimate>();

/** Input tokens of a whole request, estimated: messages, their framing, tool declarations. */
export function estimateRequestTokens(request: ChatRequest): number {
  const { messages, tools } = request;
  const last = messages[messages.length - 1];
  const cached = requestCache.get(messages);
  if (
    cached !== undefined &&
    cached.length === messages.length &&
    cached.last === last &&
    cached.tools === tools
  ) {
    return cached.total;
  }
  let total = REPLY_PRIMING + estimateToolTokens(tools);
  for (const message of messages) total += estimateMessageTokens(message);
  requestCache.set(messages, { length: messages.length, last, tools, total });
  return total;
}

/**
 * The provider's own count, learnt from its answers: the ratio of the prompt tokens it
 * reported to what was estimated for the same request, applied to the next estimates
 * (a conversation keeps its language and kind of content, so the ratio carries over).
 */
export class TokenCalibration {
  private ratio = 1;

  observe(estimated: number, reported: number): void {
    if (estimated <= 0 || reported <= 0) return;
    this.ratio = Math.min(4, Math.max(0.25, reported / estimated));
  }

  apply(estimated: number): number {
    return Math.ceil(estimated * this.ratio);
  }
}
