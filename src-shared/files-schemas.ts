/**
 * Input schemas of the requests about a run's files and its terminal (issue 32), spread into
 * `requestSchemas` (ipc-schemas.ts). A path is checked before any lookup: relative,
 * `/`-separated, no `.` or `..` part, no NUL; anything else is `invalid_input`.
 */
import { z } from 'zod';
import { isRunId } from './domain/ids';

export const runId = z
  .string()
  .refine(isRunId, 'must be a run id (1-200 letters, digits, . _ -; not only dots)');
/** a step of a run (0: where it started, before its first step) */
const step = z.number().int().min(0).max(1_000_000);
export const workspacePath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (path) =>
      !path.includes('\0') &&
      !path.startsWith('/') &&
      path.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'must be a relative path inside the workspace (no leading /, no . or .. parts)',
  );

export const filesSchemas = {
  'runs:files': z.object({ runId, step }).strict(),
  'runs:file': z
    .object({ runId, step, path: workspacePath, download: z.boolean().optional() })
    .strict(),
  'runs:changes': z.object({ runId, to: step, from: step.optional() }).strict(),
  'runs:change-counts': z.object({ runId }).strict(),
  'runs:patch': z.object({ runId, from: step.optional(), to: step.optional() }).strict(),
  'runs:workspaces-diff': z
    .object({ a: runId, b: runId, stepA: step.optional(), stepB: step.optional() })
    .strict(),
  'runs:workspaces-first': z
    .object({
      a: runId,
      b: runId,
      pairs: z
        .array(
          z
            .object({ row: z.number().int().min(0).max(10_000_000), stepA: step, stepB: step })
            .strict(),
        )
        .max(200_000),
    })
    .strict(),
  // the run's terminal (its limit is MAX_COMMAND_LENGTH in run-terminal.ts)
  'sandbox:exec': z
    .object({
      runId,
      command: z
        .string()
        .max(10_000)
        .refine((c) => c.trim() !== '', 'must not be blank')
        .refine((c) => !c.includes('\0'), 'must not contain NUL'),
    })
    .strict(),
  'sandbox:commands': z.object({ runId }).strict(),
};
