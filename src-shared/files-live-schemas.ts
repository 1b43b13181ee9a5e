/**
 * Input schemas of the live view of a running run's workspace (files-live.ts), spread
 * into `requestSchemas` (ipc-schemas.ts); a path is checked as for `runs:file`.
 */
import { z } from 'zod';
import { runId, workspacePath } from './files-schemas';

export const filesLiveSchemas = {
  'runs:files-live': z.object({ runId }).strict(),
  'runs:file-live': z
    .object({ runId, path: workspacePath, download: z.boolean().optional() })
    .strict(),
};
