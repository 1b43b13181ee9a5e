/**
 * The contract's requests about a run's files (issue 32, docs/time-travel.md "Files at
 * every step"): the tree at a step, a file at a step, the changes between steps and the
 * patch of them. Paths were checked by the schema (relative, no `..`); they are only
 * looked up in the run's checkpoint listings, never joined to a folder on disk. A step's
 * changes carry the tool call that wrote each, where the history shows it.
 */
import { attributeChanges } from '@shared/files-attribution';
import type { Runtime } from '../runtime/runtime';
import { WorkspaceHistoryError } from '../runtime/timetravel/workspace-history';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type FilesChannel = 'runs:files' | 'runs:file' | 'runs:changes' | 'runs:patch';

export function createFilesHandlers(runtime: Runtime): Pick<Handlers, FilesChannel> {
  const { runs, files } = runtime;
  const answer = async <T>(runId: string, action: () => T): Promise<T> => {
    if (!runs.get(runId)) throw new HandlerError('not_found', `No run with id ${runId}`);
    try {
      return action();
    } catch (error) {
      if (error instanceof WorkspaceHistoryError) throw new HandlerError(error.code, error.message);
      throw error;
    }
  };
  return {
    'runs:files': async ({ runId, step }) => answer(runId, () => files.tree(runId, step)),
    'runs:file': async ({ runId, step, path, download }) =>
      answer(runId, () => files.file(runId, step, path, download === true)),
    'runs:changes': async ({ runId, to, from }) =>
      answer(runId, () => {
        const view = files.changes(runId, to, from);
        // one step's changes: which of its calls wrote each (a range spans many steps)
        if (from !== undefined || view.to !== to) return view;
        const events = runs.snapshot(runId)?.events ?? [];
        return { ...view, files: attributeChanges(view.files, events, to) };
      }),
    'runs:patch': async ({ runId, from, to }) => answer(runId, () => files.patch(runId, from, to)),
  };
}
