/**
 * Input schemas of the playground's requests (issue 28 item 4, docs/playground.md),
 * spread into `requestSchemas` (ipc-schemas.ts). The edited body is any JSON object (the
 * model server judges its fields) within a size cap; `stream` belongs to the host.
 */
import { z } from 'zod';
import { isRunId } from './domain/ids';
import { MAX_PLAYGROUND_SAMPLES } from './domain/playground';

const runId = z
  .string()
  .refine(isRunId, 'must be a run id (1-200 letters, digits, . _ -; not only dots)');

/** A request body bigger than this is no chat request a UI edits (the history caps events too). */
const MAX_BODY_CHARS = 20 * 1024 * 1024;

const body = z
  .record(z.string(), z.unknown())
  .refine((b) => typeof b['model'] === 'string' && b['model'] !== '', {
    message: 'The request needs a model (a non-empty "model")',
    path: ['model'],
  })
  .refine((b) => Array.isArray(b['messages']) && b['messages'].length > 0, {
    message: 'The request needs messages (a non-empty "messages" array)',
    path: ['messages'],
  })
  .refine((b) => !('stream' in b) && !('stream_options' in b) && !('n' in b), {
    message:
      'Leave out "stream", "stream_options" and "n": the playground streams, and sends one request per sample',
  })
  .refine((b) => JSON.stringify(b).length <= MAX_BODY_CHARS, {
    message: `The request is over ${MAX_BODY_CHARS / 1024 / 1024} MB`,
  });

export const playgroundSchemas = {
  'playground:open': z.object({ runId, seq: z.number().int().min(1).max(1e9) }).strict(),
  'playground:send': z
    .object({
      sendId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ -'),
      body,
      profile: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a profile name (default: [llm])'),
      samples: z.number().int().min(1).max(MAX_PLAYGROUND_SAMPLES),
    })
    .strict(),
  'playground:save-prompt': z
    .object({
      runId,
      systemPrompt: z
        .string()
        .max(1024 * 1024)
        .refine((text) => text.trim() !== '', 'The system prompt is empty'),
      asName: z.string().min(1).max(64).optional(),
    })
    .strict(),
};
