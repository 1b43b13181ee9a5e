/**
 * zod schemas for every request input of the contract in `ipc.ts`. Main validates each
 * request with these before it reaches the runtime; the UI may use them for inline
 * validation. The `satisfies` clause keeps them in lockstep with the typed map.
 */
import { z } from 'zod';
import { AGENT_NAMES, FLOW_NAMES } from './domain/agent';
import type { IpcError, RequestChannel, RequestInput } from './ipc';

const runId = z.string().min(1).max(200);

export const requestSchemas = {
  'run:start': z
    .object({
      task: z.string().trim().min(1, 'Describe the task for the agent').max(100_000),
      agent: z.enum(AGENT_NAMES).optional(),
      flow: z.enum(FLOW_NAMES).optional(),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
    })
    .strict(),
  'run:stop': z.object({ runId }).strict(),
  'runs:list': z.object({}).strict(),
} satisfies { [C in RequestChannel]: z.ZodType<RequestInput<C>> };

export type ParseResult<C extends RequestChannel> =
  { ok: true; value: RequestInput<C> } | { ok: false; error: IpcError };

export function parseRequest<C extends RequestChannel>(channel: C, input: unknown): ParseResult<C> {
  const schema = requestSchemas[channel] as unknown as z.ZodType<RequestInput<C>>;
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
  }));
  return {
    ok: false,
    error: {
      code: 'invalid_input',
      message: `Invalid input for ${channel}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      issues,
    },
  };
}
