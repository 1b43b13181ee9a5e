/**
 * The per-request context guard (`max_input_tokens`) and usage when the provider reports
 * none, without holding the o200k tokenizer table when it is not needed (issue 16 item
 * 7): requests are estimated (token-estimate.ts), scaled by what the provider reported
 * for earlier requests; only a request whose estimate comes near the limit, or a reply
 * without usage, loads the tokenizer (token-count.ts) to count exactly. The limit is per
 * request, never a lifetime budget (fixes openmanus.md 7.2 item 3).
 */
import type { TokenUsage } from '@shared/domain/agent';
import type { ToolCall } from '@shared/domain/message';
import type { ChatRequest } from './llm-client';
import { LlmError } from './llm-error';
import { estimateRequestTokens, TokenCalibration } from './token-estimate';
import type * as TokenCount from './token-count';

/** Above this share of the limit, an estimate is replaced by an exact count. */
const EXACT_ABOVE = 0.6;

type ExactCounter = typeof TokenCount;
let exact: Promise<ExactCounter> | null = null;
function exactCounter(): Promise<ExactCounter> {
  exact ??= import('./token-count');
  return exact;
}

export class TokenBudget {
  private readonly calibration = new TokenCalibration();

  constructor(
    private readonly maxInputTokens: number,
    private readonly profileName: string,
  ) {}

  /** The input tokens of a request as this conversation's provider would count them (about). */
  estimate(request: ChatRequest): number {
    return this.calibration.apply(estimateRequestTokens(request));
  }

  /**
   * The request's input tokens, or a CONTEXT_LIMIT error when they exceed the limit. An
   * estimate near the limit is checked with the real tokenizer, so a request is never
   * refused on an estimate alone.
   */
  async check(request: ChatRequest): Promise<number> {
    const estimated = this.estimate(request);
    if (estimated < this.maxInputTokens * EXACT_ABOVE) return estimated;
    const counted = (await exactCounter()).countRequestTokens(request);
    if (counted > this.maxInputTokens) {
      throw new LlmError(
        'CONTEXT_LIMIT',
        `This request needs about ${counted} input tokens, more than max_input_tokens = ${this.maxInputTokens} of profile "${this.profileName}". Lower max_messages or max_observe for this agent, or raise max_input_tokens if the model allows more.`,
      );
    }
    return counted;
  }

  /** The usage to report: the provider's (and it calibrates the estimates), else counted. */
  /** `usage` counts with the o200k tokenizer exactly when the provider reported no prompt_tokens */
  async usage(
    request: ChatRequest,
    reported: { prompt_tokens?: number; completion_tokens?: number } | null | undefined,
    content: string | null,
    toolCalls: ToolCall[],
  ): Promise<TokenUsage> {
    if (reported && typeof reported.prompt_tokens === 'number') {
      this.calibration.observe(estimateRequestTokens(request), reported.prompt_tokens);
      return { prompt: reported.prompt_tokens, completion: reported.completion_tokens ?? 0 };
    }
    const counter = await exactCounter();
    let completion = counter.countTextTokens(content ?? '');
    for (const call of toolCalls) {
      completion += counter.countTextTokens(call.function.name + call.function.arguments);
    }
    return { prompt: counter.countRequestTokens(request), completion };
  }
}

/** Who counted a reply's usage (`llm.responded.usageSource`), by TokenBudget.usage's rule. */
export function usageSourceOf(
  reported: { prompt_tokens?: number } | null | undefined,
): 'provider' | 'o200k' {
  return reported && typeof reported.prompt_tokens === 'number' ? 'provider' : 'o200k';
}
