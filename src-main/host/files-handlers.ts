/**
 * The contract's requests about a run's files (issue 32, docs/time-travel.md "Files at
 * every step"): the tree at a step, a file at a step, the changes between steps and the
 * patch of them. Paths were checked by the schema (relative, no `..`); they are only
 * looked up in the run's checkpoint listings, never joined to a folder on disk. A step's
 * changes carry the tool call that wrote each, where the history shows it. Two runs'
 * workspaces compared (the compare view): the files that differ at a step of each.
 */
import { attributeChanges } from '@shared/files-attribution';
import type { Runtime } from '../runtime/runtime';
import { WorkspaceComparer } from '../runtime/timetravel/workspace-compare';
import { WorkspaceHistoryError } from '../runtime/timetravel/workspace-history';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type FilesChannel =
  | 'runs:files'
  | 'runs:file'
  | 'runs:changes'
  | 'runs:change-counts'
  | 'runs:patch'
  | 'runs:workspaces-diff'
  | 'runs:workspaces-first';

export function createFilesHandlers(runtime: Runtime): Pick<Handlers, FilesChannel> {
  const { runs, files } = runtime;
  // one for the host: each archived file is hashed once however often it is compared
  const workspaces = new WorkspaceComparer(files.history);
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
    'runs:change-counts': async ({ runId }) =>
      answer(runId, () => ({ steps: files.counts.counts(runId) })),
    'runs:patch': async ({ runId, from, to }) => answer(runId, () => files.patch(runId, from, to)),
    'runs:workspaces-first': async ({ a, b, pairs }) => {
      if (!runs.get(b)) throw new HandlerError('not_found', `No run with id ${b}`);
      return answer(a, () => {
        const found = workspaces.firstDivergence(a, b, pairs);
        return {
          first: found
            ? { row: found.row, stepA: found.stepA, stepB: found.stepB, diff: found.diff }
            : null,
        };
      });
    },
    'runs:workspaces-diff': async ({ a, b, stepA, stepB }) => {
      if (!runs.get(b)) throw new HandlerError('not_found', `No run with id ${b}`);
      return answer(a, () =>
        workspaces.diff(
          { runId: a, ...(stepA !== undefined ? { step: stepA } : {}) },
          { runId: b, ...(stepB !== undefined ? { step: stepB } : {}) },
        ),
      );
    },
  };
}
