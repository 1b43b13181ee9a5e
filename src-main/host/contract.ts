/**
 * The contract's request handlers, shared by every transport. Each request is checked
 * against the channel list, validated with zod, and answered with an IpcResult: a typed
 * error for bad input or a failure, never an exception across the transport.
 */
import {
  REQUEST_CHANNELS,
  type IpcError,
  type IpcResult,
  type RequestChannel,
  type RequestInput,
  type RequestOutput,
} from '@shared/ipc';
import { parseRequest } from '@shared/ipc-schemas';
import type { Runtime } from '../runtime/runtime';

export type Handlers = {
  [C in RequestChannel]: (input: RequestInput<C>) => Promise<RequestOutput<C>>;
};

/** An error a handler throws on purpose, with a code the UI can act on. */
export class HandlerError extends Error {
  constructor(
    readonly code: IpcError['code'],
    message: string,
  ) {
    super(message);
    this.name = 'HandlerError';
  }
}

export function createHandlers(runtime: Runtime): Handlers {
  return {
    'run:start': async (input) => ({ runId: runtime.runs.start(input).runId }),
    'run:stop': async ({ runId }) => {
      if (!runtime.runs.get(runId) && !runtime.runs.isRunning(runId)) {
        throw new HandlerError('not_found', `No run with id ${runId}`);
      }
      return { stopped: runtime.runs.stop(runId) };
    },
    'runs:list': async () => runtime.runs.list(),
    // Filled in by the run host work (issue 5); answered with a typed error until then.
    'app:info': notYet('app:info'),
    'runs:get': notYet('runs:get'),
    'runs:export': notYet('runs:export'),
    'runs:import': notYet('runs:import'),
    'config:get': notYet('config:get'),
    'config:save': notYet('config:save'),
    'config:import-openmanus': notYet('config:import-openmanus'),
    'config:test-connection': notYet('config:test-connection'),
    'human:answer': notYet('human:answer'),
    'sandbox:status': notYet('sandbox:status'),
  };
}

function notYet(channel: RequestChannel): () => Promise<never> {
  return () => Promise.reject(new HandlerError('unavailable', `${channel} is not available yet`));
}

export function isRequestChannel(channel: unknown): channel is RequestChannel {
  return typeof channel === 'string' && (REQUEST_CHANNELS as readonly string[]).includes(channel);
}

export async function dispatchRequest(
  handlers: Handlers,
  channel: unknown,
  input: unknown,
): Promise<IpcResult<unknown>> {
  if (!isRequestChannel(channel)) {
    return {
      ok: false,
      error: { code: 'not_found', message: `Unknown request channel: ${String(channel)}` },
    };
  }
  const parsed = parseRequest(channel, input);
  if (!parsed.ok) return parsed;
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.value) };
  } catch (error) {
    if (error instanceof HandlerError)
      return { ok: false, error: { code: error.code, message: error.message } };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code: 'internal', message } };
  }
}
