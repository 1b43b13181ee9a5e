/**
 * A model client whose inner client can be replaced while a run goes on: the debugger's
 * "change the model profile or temperature for the rest of the run". The agent keeps
 * talking to this one object; the next request goes to the new client.
 */
import type { RequestParams } from '@shared/events';
import type { ChatOptions, ChatRequest, ChatResponse, LlmClient } from './llm-client';

export class SwitchableLlm implements LlmClient {
  constructor(private inner: LlmClient) {}

  get model(): string {
    return this.inner.model;
  }

  get maxAttempts(): number | undefined {
    return this.inner.maxAttempts;
  }

  complete(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
    return this.inner.complete(request, options);
  }

  countTokens(request: ChatRequest): number {
    return this.inner.countTokens?.(request) ?? 0;
  }

  requestParams(): RequestParams | undefined {
    return this.inner.requestParams?.();
  }

  switchTo(inner: LlmClient): void {
    this.inner = inner;
  }
}
