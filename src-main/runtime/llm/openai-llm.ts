/**
 * The model client on the `openai` SDK, built from a resolved LlmProfile: any
 * OpenAI-compatible base URL (api_type "openai"), Azure OpenAI ("azure": base_url is the
 * resource endpoint and model the deployment, or OpenManus's base_url ending in
 * /openai/deployments/NAME) and Ollama ("ollama": no key needed).
 *
 * - The SDK runs with `maxRetries: 0`; retries are ours (retry.ts), so a stop is honoured
 *   during a backoff wait too.
 * - Each attempt has a deadline of `timeout` seconds from the request to the last byte:
 *   the SDK's own timeout stops at the response headers, so a stream that stalls would
 *   hang for ever, and one that trickles a chunk every few seconds never ends
 *   (issue 12 item 5; the deadline used to restart on every chunk).
 * - Replies are capped (reply-limits.ts): bodies on the wire, and the reply's characters.
 * - The per-request context guard checks the request against `max_input_tokens` before
 *   sending it (token-budget.ts: estimated, calibrated by the provider's usage, counted
 *   exactly near the limit). Per request, never a lifetime budget (openmanus.md 7.2 item 3).
 * - The key lives in #private fields only (util.inspect shows the SDK client's key,
 *   reliability.md 0.6), and provider texts are scrubbed before they become messages.
 */
import OpenAI, { APIError, AzureOpenAI } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
} from 'openai/resources/chat/completions';
import type { ToolCall } from '@shared/domain/message';
import type { LlmProfile } from '../config/schema';
import { azureTarget } from '../config/azure-url';
import { abortError, CancelledError, cancelledWithPartial } from '../util/abort';
import type { ChatOptions, ChatRequest, ChatResponse, LlmClient } from './llm-client';
import {
  classifyError,
  displayUrl,
  LlmError,
  redactSecrets,
  type ErrorContext,
} from './llm-errors';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, withRetries, type RetryPolicy } from './retry';
import { TokenBudget, usageSourceOf } from './token-budget';
import { requestParamsOf } from './request-params';
import type { RequestParams } from '@shared/events';
import {
  deadlineError,
  emptyChoices,
  notAChatEndpoint,
  streamEndedEarly,
  type AnswerSource,
} from './answer-errors';
import { streamSaidDone, watchStreamEnd } from './stream-end';
import { keepAliveFetch } from './openai-fetch';
import { toWireMessage, Watchdog } from './chat-wire';
import { bodyFailure, streamFailure } from './in-band-errors';
import { droppedToolCallsNotice, looksLikeDroppedToolCalls } from './stream-fallback';
import {
  cappedFetch,
  findReplyTooLarge,
  MAX_REPLY_BYTES,
  ReplyBudget,
  replyTooLargeError,
} from './reply-limits';

export interface OpenAiLlmOptions {
  /** overrides of the backoff (tests shorten it); maxRetries comes from the profile */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** the cap on a response body (default MAX_REPLY_BYTES; tests lower it) */
  maxReplyBytes?: number;
}

const OLLAMA_DEFAULT_URL = 'http://localhost:11434/v1';
const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';
const AZURE_DEFAULT_API_VERSION = '2024-10-21';

type Body = ChatCompletionCreateParamsBase;

export class OpenAiLlm implements LlmClient {
  readonly model: string;
  readonly profileName: string;
  readonly maxAttempts: number;
  #client: OpenAI;
  #ctx: ErrorContext;
  #policy: RetryPolicy;
  #stream: boolean;
  #params: RequestParams;
  #budget: TokenBudget;
  #timeoutMs: number;
  #maxReplyBytes: number;
  /** ask for usage in the stream; dropped for servers that refuse `stream_options` */
  #askUsage = true;

  constructor(profile: LlmProfile, options: OpenAiLlmOptions = {}) {
    this.model = profile.model;
    this.profileName = profile.name;
    this.maxAttempts = profile.maxRetries + 1;
    const baseUrl =
      profile.apiType === 'ollama' && profile.baseUrl === OPENAI_DEFAULT_URL
        ? OLLAMA_DEFAULT_URL
        : profile.baseUrl;
    this.#ctx = {
      profileName: profile.name,
      model: profile.model,
      baseUrl: displayUrl(baseUrl),
      apiKey: profile.apiKey,
    };
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: profile.maxRetries };
    this.#stream = profile.stream;
    this.#params = requestParamsOf(profile);
    this.#budget = new TokenBudget(profile.maxInputTokens, profile.name);
    this.#timeoutMs = profile.timeoutMs;
    this.#maxReplyBytes = options.maxReplyBytes ?? MAX_REPLY_BYTES;
    const common = {
      maxRetries: 0,
      // our watchdog is the real per-attempt timeout; this one is a backstop
      timeout: profile.timeoutMs + 5_000,
      logLevel: 'off' as const,
      // node:http with keep-alive (openai-fetch.ts); fetch itself for what it does not handle
      fetch: keepAliveFetch(this.#maxReplyBytes, watchStreamEnd(cappedFetch(this.#maxReplyBytes))),
    };
    if (profile.apiType === 'azure') {
      if (!profile.apiKey) throw this.#configError('azure needs an api_key');
      // base_url is the endpoint, or OpenManus's ENDPOINT/openai/deployments/NAME
      const { endpoint, deployment } = azureTarget(baseUrl, profile.model);
      this.#client = new AzureOpenAI({
        ...common,
        apiKey: profile.apiKey,
        endpoint,
        apiVersion: profile.apiVersion || AZURE_DEFAULT_API_VERSION,
        deployment,
      });
    } else {
      this.#client = new OpenAI({
        ...common,
        baseURL: baseUrl,
        // Ollama ignores the key, the SDK insists on one.
        apiKey: profile.apiKey || (profile.apiType === 'ollama' ? 'ollama' : ''),
      });
    }
  }

  countTokens(request: ChatRequest): number {
    return this.#budget.estimate(request);
  }

  async complete(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    await this.#budget.check(request);
    const body = this.#body(request);
    const call = (stream: boolean) =>
      withRetries(() => this.#attempt(body, options, request, stream), {
        policy: this.#policy,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      });
    const streamed = this.#stream;
    const response = await call(streamed);
    if (!streamed || !looksLikeDroppedToolCalls(response, body)) return response;
    // stream-fallback.ts: some servers lose tool calls when they stream
    options.onRetry?.(droppedToolCallsNotice(response.finishReason));
    const single = await call(false);
    if (single.toolCalls.length > 0) this.#stream = false;
    return single;
  }

  /** One attempt, with its own abort controller: the user's stop or the watchdog. */
  async #attempt(
    body: Body,
    options: ChatOptions,
    request: ChatRequest,
    stream: boolean,
  ): Promise<ChatResponse> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(signal);
    const controller = new AbortController();
    const watchdog = new Watchdog(this.#timeoutMs, () => controller.abort());
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return stream
        ? await this.#streamed(body, controller, watchdog, options, request)
        : await this.#single(body, controller, watchdog, request);
    } catch (error) {
      if (signal?.aborted) throw error instanceof CancelledError ? error : abortError(signal);
      const tooLarge = findReplyTooLarge(error);
      if (tooLarge) throw replyTooLargeError(this.profileName, tooLarge.message);
      if (error instanceof LlmError) throw error;
      if (watchdog.fired) {
        throw new LlmError(
          'RETRYABLE',
          `The model did not answer within ${this.#timeoutMs / 1000} s (timeout of profile "${this.profileName}")`,
          { cause: error },
        );
      }
      const headers = (error as { headers?: Headers }).headers;
      throw classifyError(error, this.#ctx, parseRetryAfter(headers));
    } finally {
      watchdog.stop();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async #single(
    body: Body,
    controller: AbortController,
    watchdog: Watchdog,
    request: ChatRequest,
  ): Promise<ChatResponse> {
    const { data, response } = await this.#client.chat.completions
      .create({ ...body, stream: false }, { signal: controller.signal })
      .withResponse();
    watchdog.stop();
    const completion = data as unknown;
    const inBand = bodyFailure(completion, this.#ctx);
    if (inBand) throw inBand;
    if (typeof completion !== 'object' || completion === null) {
      throw notAChatEndpoint(this.#answerWho(), response.headers.get('content-type'));
    }
    const choice = (completion as ChatCompletion).choices?.[0];
    if (!Array.isArray((completion as ChatCompletion).choices)) {
      throw notAChatEndpoint(this.#answerWho(), response.headers.get('content-type'));
    }
    if (!choice || typeof choice.message !== 'object' || choice.message === null) {
      throw emptyChoices(this.#answerWho());
    }
    const message = choice.message;
    const toolCalls: ToolCall[] = (message.tool_calls ?? []).flatMap((call, i) =>
      call.type === 'function'
        ? [
            {
              id: call.id || `call_${i + 1}`,
              type: 'function' as const,
              function: { name: call.function.name, arguments: call.function.arguments ?? '' },
            },
          ]
        : [],
    );
    const content =
      typeof message.content === 'string' && message.content !== '' ? message.content : null;
    const budget = new ReplyBudget();
    budget.add(content ?? '');
    for (const call of toolCalls) budget.add(call.function.arguments);
    if (budget.exceeded) throw replyTooLargeError(this.profileName, budget.detail);
    return {
      content,
      toolCalls,
      finishReason: choice.finish_reason ?? 'stop',
      usage: await this.#budget.usage(
        request,
        (completion as ChatCompletion).usage,
        content,
        toolCalls,
      ),
      usageSource: usageSourceOf((completion as ChatCompletion).usage),
      model: (completion as ChatCompletion).model || this.model,
    };
  }

  async #streamed(
    body: Body,
    controller: AbortController,
    watchdog: Watchdog,
    options: ChatOptions,
    request: ChatRequest,
  ): Promise<ChatResponse> {
    let created;
    try {
      created = await this.#client.chat.completions
        .create(
          {
            ...body,
            stream: true,
            ...(this.#askUsage ? { stream_options: { include_usage: true } } : {}),
          },
          { signal: controller.signal },
        )
        .withResponse();
    } catch (error) {
      // Some OpenAI-compatible servers refuse `stream_options`; usage is then counted here.
      if (this.#askUsage && isStreamOptionsRefusal(error)) {
        this.#askUsage = false;
        return this.#streamed(body, controller, watchdog, options, request);
      }
      throw error;
    }
    const { data: stream, response } = created;
    // Read the stream unless the server said it is something else: the SDK reads a
    // stream sent without a content-type, and so do we (issue 16 item 5).
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType !== '' && !/text\/event-stream|application\/x-ndjson/i.test(contentType)) {
      controller.abort();
      throw notAChatEndpoint(this.#answerWho(), contentType);
    }
    // The deadline runs on from the request: chunks do not extend it (a trickle must end).
    let lastChunkAt = Date.now();
    const budget = new ReplyBudget();
    let text = '';
    let finishReason: string | null = null;
    let model = '';
    let usage: ChatCompletionChunk['usage'] = null;
    let sawChoice = false;
    const calls: { id: string; name: string; arguments: string }[] = [];
    try {
      for await (const chunk of stream) {
        lastChunkAt = Date.now();
        if (chunk.model) model = chunk.model;
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        sawChoice = true;
        const piece = choice.delta?.content;
        budget.add(piece ?? undefined);
        if (piece) {
          text += piece;
          options.onDelta?.(piece);
        }
        for (const [position, delta] of (choice.delta?.tool_calls ?? []).entries()) {
          const index = typeof delta.index === 'number' ? delta.index : position;
          const call = (calls[index] ??= { id: '', name: '', arguments: '' });
          if (delta.id && !call.id) call.id = delta.id;
          if (delta.function?.name) call.name += delta.function.name;
          if (delta.function?.arguments) call.arguments += delta.function.arguments;
          budget.add(delta.function?.arguments);
        }
        if (budget.exceeded) {
          controller.abort();
          throw replyTooLargeError(this.profileName, budget.detail);
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (error) {
      if (options.signal?.aborted) throw cancelledWithPartial(options.signal, text);
      if (budget.exceeded) throw error; // the reply is dropped whole, not kept as partial text
      if (watchdog.fired)
        throw withPartial(
          deadlineError(this.#answerWho(), this.#timeoutMs, lastChunkAt, text.length),
          text,
        );
      throw withPartial(streamFailure(error, this.#ctx, text.length), text);
    }
    // The SDK ends the iteration quietly when its request is aborted.
    if (options.signal?.aborted) throw cancelledWithPartial(options.signal, text);
    if (watchdog.fired)
      throw withPartial(
        deadlineError(this.#answerWho(), this.#timeoutMs, lastChunkAt, text.length),
        text,
      );
    if (!sawChoice) throw emptyChoices(this.#answerWho());
    // A cut reply is not an answer (stream-end.ts): neither finish_reason nor [DONE] came.
    if (finishReason === null && !streamSaidDone(response))
      throw withPartial(streamEndedEarly(this.#answerWho(), text.length), text);
    const toolCalls: ToolCall[] = calls
      .filter((c) => c !== undefined)
      .map((c, i) => ({
        id: c.id || `call_${i + 1}`,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    const content = text !== '' ? text : null;
    return {
      content,
      toolCalls,
      // A stream that ended with [DONE] but no finish_reason (some servers never send one)
      // is complete.
      finishReason: finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      usage: await this.#budget.usage(request, usage, content, toolCalls),
      usageSource: usageSourceOf(usage),
      model: model || this.model,
    };
  }

  /** Who answered, for the error messages of answer-errors.ts. */
  requestParams(): RequestParams {
    return this.#params;
  }

  #answerWho(): AnswerSource {
    return { profileName: this.profileName, model: this.model, baseUrl: this.#ctx.baseUrl };
  }

  #body(request: ChatRequest): Body {
    const tools = request.tools ?? [];
    const body: Body = {
      model: this.model,
      messages: request.messages.map(toWireMessage),
    };
    if (tools.length > 0) {
      body.tools = tools;
      body.tool_choice = request.toolChoice ?? 'auto';
    }
    return { ...body, ...this.#params };
  }

  #configError(detail: string): LlmError {
    return new LlmError('CONFIG', `Profile "${this.profileName}": ${redactSecrets(detail)}`);
  }
}

function isStreamOptionsRefusal(error: unknown): boolean {
  return (
    error instanceof APIError &&
    (error.status === 400 || error.status === 422) &&
    /stream_options/i.test(error.message)
  );
}

function withPartial(error: LlmError, text: string): LlmError {
  if (text) error.partialContent = text;
  return error;
}
