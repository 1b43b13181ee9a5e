/**
 * Input schemas of the datasets and experiments requests (issue 31), spread into
 * `requestSchemas` (ipc-schemas.ts). Shapes and sizes only: a dataset's lines get their
 * full checks (file: tasks, workspace folders) from the runtime's dataset loader, an
 * experiment from the experiment file's reader, both naming the item or key at fault.
 */
import { z } from 'zod';
import { isPathSafeId, isRunId } from './domain/ids';
import { SCORER_KINDS } from './experiments/scorer-types';

const datasetName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );
const experimentId = z
  .string()
  .refine((id) => isPathSafeId(id, 100), 'must be an experiment id (x-...)');
const runId = z
  .string()
  .refine(isRunId, 'must be a run id (1-200 letters, digits, . _ -; not only dots)');
const profile = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'not a profile name (letters, digits, _ . -)');
const text = (max: number) => z.string().max(max);
const threshold = z.number().min(0).max(1).optional();
const scorerName = z.string().trim().min(1).max(64);

const datasetItem = z
  .object({
    id: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
        'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
      ),
    task: z
      .string()
      .trim()
      .min(1, 'give the task text (or file:PATH)')
      .max(1024 * 1024),
    workspace: text(4096).optional(),
    expected: text(1024 * 1024).optional(),
    check: z.string().trim().min(1).max(10_000).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const scorer = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('shell'), name: scorerName, threshold, command: text(10_000) })
    .strict(),
  z
    .object({
      kind: z.literal('answer'),
      name: scorerName,
      threshold,
      match: z.enum(['exact', 'contains', 'regex', 'json_schema', 'numeric']),
      expected: text(1024 * 1024).optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      tolerance: z.number().min(0).optional(),
      ignoreCase: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('file'),
      name: scorerName,
      threshold,
      path: z.string().trim().min(1).max(4096),
      equals: text(1024 * 1024).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('trajectory'),
      name: scorerName,
      threshold,
      metric: z.enum(['steps', 'cost', 'tool_errors', 'stuck', 'duplicates']),
      max: z.number().min(0),
    })
    .strict(),
  z
    .object({
      kind: z.literal('judge'),
      name: scorerName,
      threshold,
      profile,
      rubric: z.string().trim().min(1).max(100_000),
    })
    .strict(),
]);
// the union above lists every kind the runtime knows
void (SCORER_KINDS satisfies readonly z.infer<typeof scorer>['kind'][]);

export const experimentsSchemas = {
  'datasets:list': z.object({}).strict(),
  'datasets:get': z.object({ name: datasetName }).strict(),
  'datasets:save': z
    .object({ name: datasetName, items: z.array(datasetItem).max(100_000) })
    .strict(),
  'datasets:add-runs': z
    .object({
      name: datasetName,
      runIds: z.array(runId).min(1, 'pick at least one run').max(1_000),
      withAnswer: z.boolean().optional(),
    })
    .strict(),
  'experiments:list': z.object({}).strict(),
  'experiments:get': z.object({ experimentId }).strict(),
  'experiments:start': z
    .object({
      name: z
        .string()
        .regex(
          /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/,
          'must be 1-64 letters, digits, spaces, ".", "_" or "-"',
        ),
      dataset: datasetName,
      variants: z
        .array(
          z
            .object({
              name: z
                .string()
                .regex(
                  /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/,
                  'must be 1-64 letters, digits, spaces, ".", "_" or "-"',
                ),
              agent: z
                .string()
                .regex(
                  /^[A-Za-z0-9][A-Za-z0-9._-]*(@[A-Za-z0-9._-]+)?$/,
                  'must be an agent name or name@version',
                ),
              profile: profile.optional(),
            })
            .strict(),
        )
        .min(1, 'add at least one variant')
        .max(20),
      repeats: z.number().int().min(1).max(100),
      scorers: z.array(scorer).min(1, 'add at least one scorer').max(50),
      concurrency: z.number().int().min(1).max(64),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
    })
    .strict(),
  'experiments:resume': z.object({ experimentId }).strict(),
  'experiments:stop': z.object({ experimentId }).strict(),
  'experiments:trend': z.object({ datasetPath: z.string().min(1).max(4096) }).strict(),
};
