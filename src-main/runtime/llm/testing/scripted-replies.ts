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
  /** OpenAI's answer when the account has no credit left: a 429 that waiting does not fix */
  quotaExceeded(): ScriptedServerReply {
    return {
      error: {
        status: 429,
        body: {
          error: {
            message:
              'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
            type: 'insufficient_quota',
            param: null,
            code: 'insufficient_quota',
          },
        },
      },
    };
  },
  /** a valid key whose project may not use the requested model */
  modelNotAllowed(model = 'gpt-4o'): ScriptedServerReply {
    return {
      error: {
        status: 403,
        body: {
          error: {
            message: `Project \`proj_x\` does not have access to model \`${model}\``,
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
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
