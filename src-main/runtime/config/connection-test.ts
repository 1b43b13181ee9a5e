/**
 * "Test connection" for a model profile: one tiny chat request with the real `openai`
 * client (no retries), and a verdict a user can act on: the key was refused, the model
 * does not exist, nothing listens at the base URL, the server is not OpenAI-compatible.
 * The key is never part of the answer, even when a server echoes it back.
 *
 * The request has a run's shape (issue 26 item 8): the token limit under the name a run
 * sends it (`max_completion_tokens` for reasoning models, which refuse `max_tokens`), the
 * temperature, and a tool, so an endpoint without tool calling fails here and not in the
 * first run. Only the token limit is small.
 */
import OpenAI, { AzureOpenAI } from 'openai';
import type { ConnectionTestResult } from '@shared/ipc';
import type { LlmProfile } from './schema';
import { azureTarget } from './azure-url';
import { explainConnectionFailure } from '../util/connection-cause';
import { isReasoningProfile } from './reasoning-model';

/** A tool like the agents' own, so the request asks what a run asks. */
const PROBE_TOOL = {
  type: 'function' as const,
  function: {
    name: 'terminate',
    description: 'End the task.',
    parameters: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['success', 'failure'] } },
      required: ['status'],
    },
  },
};

/** The run's parameters with a small token limit: enough for a reasoning model to answer. */
function probeParams(
  profile: LlmProfile,
): { max_completion_tokens: number } | { max_tokens: number; temperature: number } {
  return isReasoningProfile(profile)
    ? { max_completion_tokens: 64 }
    : { max_tokens: 8, temperature: profile.temperature };
}

const DEFAULT_TIMEOUT_MS = 20_000;

export async function testConnection(
  profile: LlmProfile,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ConnectionTestResult> {
  const started = Date.now();
  const base = { model: profile.model, baseUrl: profile.baseUrl };
  const done = (ok: boolean, message: string, status?: number): ConnectionTestResult => ({
    ...base,
    ok,
    latencyMs: Date.now() - started,
    message: redact(message, profile.apiKey),
    ...(status !== undefined ? { status } : {}),
  });
  if (!profile.apiKey && profile.apiType !== 'ollama') {
    return done(false, 'No API key is set for this profile: set one (or an env: reference) first.');
  }
  const timeout = Math.min(profile.timeoutMs, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const common = { maxRetries: 0, timeout, apiKey: profile.apiKey || 'ollama' };
  const client =
    profile.apiType === 'azure'
      ? new AzureOpenAI({
          ...common,
          ...azureTarget(profile.baseUrl, profile.model),
          apiVersion: profile.apiVersion || '2024-10-21',
        })
      : new OpenAI({ ...common, baseURL: profile.baseUrl });
  try {
    const reply: unknown = await client.chat.completions.create(
      {
        model: profile.model,
        messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
        tools: [PROBE_TOOL],
        tool_choice: 'auto',
        ...probeParams(profile),
        stream: false,
      },
      options.signal ? { signal: options.signal } : {},
    );
    const choices = (reply as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choices)) {
      return done(
        false,
        `The server at ${profile.baseUrl} answered, but not like an OpenAI-compatible API ` +
          '(check the base URL: it usually ends in /v1).',
      );
    }
    const model = (reply as { model?: unknown }).model;
    return done(
      true,
      `Connected: ${typeof model === 'string' && model ? model : profile.model} answered.`,
    );
  } catch (error) {
    return explain(error, profile, done);
  }
}

function explain(
  error: unknown,
  profile: LlmProfile,
  done: (ok: boolean, message: string, status?: number) => ConnectionTestResult,
): ConnectionTestResult {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return done(
      false,
      `No answer from ${profile.baseUrl} in time: the server is slow or unreachable.`,
    );
  }
  if (error instanceof OpenAI.APIConnectionError) {
    // the same classification a run's model client uses (util/connection-cause.ts)
    return done(
      false,
      explainConnectionFailure(error, {
        baseUrl: displayUrl(profile.baseUrl),
        profileName: profile.name,
      }).message,
    );
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const detail = firstLine(error.message);
    switch (error.status) {
      case 401:
        return done(false, `The API key was refused (401): ${detail}`, 401);
      case 403:
        return done(false, `Access denied (403): ${detail}`, 403);
      case 404:
        return done(
          false,
          `Not found (404): check the base URL and that the model "${profile.model}" exists. ${detail}`,
          404,
        );
      case 400:
        return done(false, badRequest(detail, profile), 400);
      case 429:
        return done(false, `Rate limited or out of quota (429): ${detail}`, 429);
      default:
        return done(false, `The server answered ${error.status}: ${detail}`, error.status);
    }
  }
  if (error instanceof SyntaxError) {
    return done(
      false,
      `The server at ${profile.baseUrl} did not answer with JSON: is the base URL right (it usually ends in /v1)?`,
    );
  }
  return done(
    false,
    `The test failed: ${firstLine(error instanceof Error ? error.message : String(error))}`,
  );
}

/** The base URL without credentials or query, fit for a message. */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).slice(0, 300);
}

/** Removes the key, should a server or library ever put it in a message. */
function redact(text: string, key: string): string {
  return key.length >= 4 ? text.split(key).join('[redacted]') : text;
}

/** A 400 that says what the run would trip on: the token parameter, the temperature, tools. */
function badRequest(detail: string, profile: LlmProfile): string {
  const table = profile.name === 'default' ? '[llm]' : `[llm.${profile.name}]`;
  if (/max_tokens.*max_completion_tokens|'max_tokens' is not supported/i.test(detail)) {
    return `The model "${profile.model}" wants max_completion_tokens, as reasoning models do (400): ${detail} Set reasoning = true in ${table}.`;
  }
  if (/temperature/i.test(detail) && /unsupported|only the default/i.test(detail)) {
    return `The model "${profile.model}" refuses the temperature (400): ${detail} If it is a reasoning model, set reasoning = true in ${table}; otherwise set temperature = 1.`;
  }
  if (/tool/i.test(detail) && /not support|unsupported|does not accept/i.test(detail)) {
    return `The model "${profile.model}" does not accept tools (400): ${detail} The agents work by calling tools: choose a model with tool (function) calling.`;
  }
  return `The server refused the request (400): ${detail}`;
}
