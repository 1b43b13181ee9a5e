/**
 * zod schemas for every request input of the contract in `ipc.ts`. Main validates each
 * request with these before it reaches the runtime; the UI may use them for inline
 * validation. The `satisfies` clause keeps them in lockstep with the typed map.
 * Config values get their full checks (ranges, URL shape) from the config schema in
 * main, which also names the line; here they are checked for type and sane size.
 */
import { z } from 'zod';
import { AGENT_NAMES, FLOW_NAMES } from './domain/agent';
import {
  CONFIG_AGENT_NAMES,
  CONFIG_API_TYPES,
  CONFIG_TEXT_REPLY_POLICIES,
  CONFIG_TOOL_CHOICES,
  type IpcError,
  type RequestChannel,
  type RequestInput,
} from './ipc';

const runId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._-]+$/, 'must be a run id (letters, digits, . _ -)');
const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be 1-100 letters, digits, . _ or -');
/** Large enough for a long run's history, small enough to refuse an accidental upload. */
const MAX_IMPORT_CHARS = 200 * 1024 * 1024;
const empty = z.object({}).strict();

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const llmEdits = z
  .object({
    model: nullable(z.string().max(200)),
    base_url: nullable(z.string().max(2000)),
    api_type: nullable(z.enum(CONFIG_API_TYPES)),
    api_version: nullable(z.string().max(100)),
    max_tokens: nullable(z.number().int()),
    temperature: nullable(z.number()),
    max_input_tokens: nullable(z.number().int()),
    stream: nullable(z.boolean()),
    timeout: nullable(z.number()),
    max_retries: nullable(z.number().int()),
  })
  .strict();

const agentSettingEdits = z
  .object({
    max_steps: nullable(z.number().int()),
    duplicate_threshold: nullable(z.number().int()),
    max_messages: nullable(z.number().int()),
    max_observe: nullable(z.number().int()),
    tool_choice: nullable(z.enum(CONFIG_TOOL_CHOICES)),
    text_reply_policy: nullable(z.enum(CONFIG_TEXT_REPLY_POLICIES)),
  })
  .strict();

const apiKeyEdit = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('set'),
      value: z
        .string()
        .trim()
        .min(1, 'The API key is empty (use "clear" to remove it)')
        .max(4096)
        .refine((v) => !/\s/.test(v), 'An API key has no spaces or line breaks')
        .refine((v) => !v.startsWith('env:'), 'Use the "env" action for env: references'),
    })
    .strict(),
  z
    .object({
      action: z.literal('env'),
      name: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,200}$/, 'must be an environment variable name'),
    })
    .strict(),
  z.object({ action: z.literal('clear') }).strict(),
]);

const configTarget = z.enum(['default', ...CONFIG_AGENT_NAMES]);

export const requestSchemas = {
  'app:info': empty,
  'run:start': z
    .object({
      task: z.string().trim().min(1, 'Describe the task for the agent').max(100_000),
      agent: z.enum(AGENT_NAMES).optional(),
      flow: z.enum(FLOW_NAMES).optional(),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
      sessionId: sessionId.optional(),
    })
    .strict(),
  'run:stop': z.object({ runId }).strict(),
  'runs:list': empty,
  'runs:get': z
    .object({
      runId,
      afterSeq: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(1_000_000).optional(),
    })
    .strict(),
  'runs:export': z.object({ runId }).strict(),
  'runs:import': z
    .object({
      content: z.string().min(1, 'The file is empty').max(MAX_IMPORT_CHARS),
      fileName: z.string().max(500).optional(),
    })
    .strict(),
  'runs:diff': z.object({ a: runId, b: runId }).strict(),
  'runs:compare': z
    .object({
      runIds: z
        .array(runId)
        .min(2, 'Compare needs at least two runs')
        .max(12, 'Compare takes at most 12 runs'),
    })
    .strict(),
  'config:get': empty,
  'config:save': z
    .object({
      target: configTarget,
      llm: llmEdits.optional(),
      settings: agentSettingEdits.optional(),
      apiKey: apiKeyEdit.optional(),
    })
    .strict()
    .refine((input) => !(input.target === 'default' && input.settings), {
      message: 'Run settings belong to an agent ([agent.NAME]), not to [llm]',
      path: ['settings'],
    }),
  'config:import-openmanus': z
    .object({
      content: z.string().max(1024 * 1024),
      fileName: z.string().max(500).optional(),
      dryRun: z.boolean().optional(),
    })
    .strict(),
  'config:test-connection': z
    .object({ target: configTarget, llm: llmEdits.optional(), apiKey: apiKeyEdit.optional() })
    .strict(),
  'human:answer': z
    .object({
      runId,
      toolCallId: z.string().min(1).max(500),
      answer: z.string().max(100_000),
    })
    .strict(),
  'sandbox:status': z.object({ sessionId: sessionId.optional() }).strict(),
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
