/**
 * The OpenAI client, loaded with its first request. The `openai` SDK and the client take
 * a noticeable part of a CLI run's start-up (issue 16 item 7), and nothing needs them
 * before the first model call: the run's first events come earlier. Until then,
 * `countTokens` estimates (token-estimate.ts).
 */
import type { LlmProfile } from '../config/schema';
import type { ChatOptions, ChatRequest, ChatResponse, LlmClient } from './llm-client';
import type { OpenAiLlm, OpenAiLlmOptions } from './openai-llm';
import { estimateRequestTokens } from './token-estimate';
import { requestParamsOf } from './request-params';
import type { RequestParams } from '@shared/events';

export class LazyOpenAiLlm implements LlmClient {
  readonly model: string;
  readonly maxAttempts: number;
  private loading: Promise<OpenAiLlm> | null = null;
  private loaded: OpenAiLlm | null = null;

  constructor(
    private readonly profile: LlmProfile,
    private readonly options: OpenAiLlmOptions = {},
  ) {
    this.model = profile.model;
    this.maxAttempts = profile.maxRetries + 1;
  }

  countTokens(request: ChatRequest): number {
    return this.loaded ? this.loaded.countTokens(request) : estimateRequestTokens(request);
  }

  requestParams(): RequestParams {
    return requestParamsOf(this.profile);
  }

  async complete(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
    this.loading ??= import('./openai-llm').then(({ OpenAiLlm }) => {
      this.loaded = new OpenAiLlm(this.profile, this.options);
      return this.loaded;
    });
    return (await this.loading).complete(request, options);
  }
}
