/** Ready-made replies for the scripted server, so tests read like the situation they set up. */
import { CONTEXT_LENGTH_ERRORS } from './openai-wire';
import type { ScriptedServerReply } from './scripted-openai-server';

export const reply = {
  text(content: string): ScriptedServerReply {
    return { content };
  },
  tool(name: string, args: unknown = {}, content: string | null = null): ScriptedServerReply {
    return { content, toolCalls: [{ name, arguments: args }] };
  },
  terminate(status = 'success', content: string | null = null): ScriptedServerReply {
    return { content, toolCalls: [{ name: 'terminate', arguments: { status } }] };
  },
  /** 429; `retryAfter` goes into the Retry-After header as given (seconds or an HTTP date) */
  rateLimited(retryAfter?: string, extraHeaders: Record<string, string> = {}): ScriptedServerReply {
    const headers = { ...extraHeaders };
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    return {
      error: {
        status: 429,
        headers,
        body: {
          error: {
            message:
              'Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
      },
    };
  },
  serverError(status = 500): ScriptedServerReply {
    return { error: { status } };
  },
  unauthorized(): ScriptedServerReply {
    return {
      error: {
        status: 401,
        body: {
          error: {
            message:
              'Incorrect API key provided: sk-te*****cdef. You can find your API key at https://platform.openai.com/account/api-keys.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      },
    };
  },
  contextLength(provider: keyof typeof CONTEXT_LENGTH_ERRORS = 'openai'): ScriptedServerReply {
    const e = CONTEXT_LENGTH_ERRORS[provider];
    return { error: { status: e.status, body: e.body } };
  },
};
