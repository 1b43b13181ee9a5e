/**
 * Sends the playground's edited request (issue 28 item 4) from the host: the body exactly
 * as edited, plus `stream: true` and `stream_options` (as a run's), to the profile's
 * base URL with its key, N times at once (one request per sample: PlaygroundSendResult.mode
 * says why not `n`). Text is reported as it streams; each sample ends with its reply or
 * its error. The key is in no answer and no message: error texts are redacted with it.
 *
 * Nothing is recorded: the run the request came from is not touched (its history is read
 * by the caller, never written).
 */
import OpenAI, { AzureOpenAI } from 'openai';
import type { ToolCall } from '@shared/domain/message';
import type { PlaygroundDelta, PlaygroundSample } from '@shared/domain/playground';
import type { LlmProfile } from '../config/schema';
import { azureTarget } from '../config/azure-url';
import { redactSecrets } from '../llm/llm-errors';

export interface PlaygroundSendOptions {
  sendId: string;
  body: Record<string, unknown>;
  profile: LlmProfile;
  samples: number;
  onDelta(delta: PlaygroundDelta): void;
  signal?: AbortSignal;
}

export async function sendPlaygroundRequest(
  options: PlaygroundSendOptions,
): Promise<PlaygroundSample[]> {
  const { profile } = options;
  const client = clientOf(profile);
  const runs = Array.from({ length: options.samples }, (_, index) =>
    sample(client, options, index).then((done) => {
      options.onDelta({ sendId: options.sendId, sample: index, done });
      return done;
    }),
  );
  return Promise.all(runs);
}

function clientOf(profile: LlmProfile): OpenAI {
  const common = {
    maxRetries: 0,
    timeout: profile.timeoutMs,
    logLevel: 'off' as const,
    apiKey: profile.apiKey || (profile.apiType === 'ollama' ? 'ollama' : ''),
  };
  if (profile.apiType === 'azure') {
    return new AzureOpenAI({
      ...common,
      ...azureTarget(profile.baseUrl, profile.model),
      apiVersion: profile.apiVersion || '2024-10-21',
    });
  }
  return new OpenAI({ ...common, baseURL: profile.baseUrl });
}

/** One streamed chat completion, put back together: text, tool calls, finish, usage. */
async function sample(
  client: OpenAI,
  options: PlaygroundSendOptions,
  index: number,
): Promise<PlaygroundSample> {
  const started = Date.now();
  let content = '';
  let finishReason = '';
  let model: string | undefined;
  let usage: PlaygroundSample['usage'];
  const calls: { id: string; name: string; arguments: string }[] = [];
  try {
    // The edited body as is (the server judges its fields), with the transport's options
    // a run sends too: the usage then comes in the stream's last chunk.
    const request = {
      ...options.body,
      stream: true,
      stream_options: { include_usage: true },
    } as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
    const stream = await client.chat.completions.create(
      request,
      options.signal ? { signal: options.signal } : {},
    );
    for await (const chunk of stream) {
      if (chunk.model) model = chunk.model;
      if (chunk.usage) {
        usage = { prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens };
      }
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const text = choice.delta?.content;
      if (text) {
        content += text;
        options.onDelta({ sendId: options.sendId, sample: index, text });
      }
      for (const call of choice.delta?.tool_calls ?? []) {
        const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name += call.function.name;
        if (call.function?.arguments) slot.arguments += call.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      index,
      error: redactSecrets(message, options.profile.apiKey),
      durationMs: Date.now() - started,
    };
  }
  const toolCalls: ToolCall[] = calls
    .filter((c) => c !== undefined)
    .map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  return {
    index,
    content: content === '' && toolCalls.length > 0 ? null : content,
    toolCalls,
    finishReason,
    ...(usage ? { usage } : {}),
    ...(model !== undefined ? { model } : {}),
    durationMs: Date.now() - started,
  };
}
