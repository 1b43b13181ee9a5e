/**
 * The contract's live view of a running run's workspace (issue 32, docs/time-travel.md
 * "The running step, live"): `runs:files-live` lists the session's folder now, marked
 * against the run's last checkpoint, and `runs:file-live` reads one file of it. Both read
 * the folder the way the host snapshot does (links never followed); a workspace that
 * lives only in a remote engine's container is answered as unavailable, never read here.
 */
import type { Runtime } from '../runtime/runtime';
import { LiveWorkspace } from '../runtime/timetravel/workspace-live';
import { WorkspaceHistoryError } from '../runtime/timetravel/workspace-history';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type FilesLiveChannel = 'runs:files-live' | 'runs:file-live';

export function createFilesLiveHandlers(runtime: Runtime): Pick<Handlers, FilesLiveChannel> {
  // one for the host: each file's comparison with the checkpoint is kept until it changes
  const live = new LiveWorkspace({
    runs: runtime.runs,
    sessions: runtime.services.sessions,
    engine: runtime.services.sandboxes.engine,
    history: runtime.files.history,
  });
  const typed = async <T>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (error instanceof WorkspaceHistoryError) throw new HandlerError(error.code, error.message);
      throw error;
    }
  };
  return {
    'runs:files-live': async ({ runId }) => typed(() => live.tree(runId)),
    'runs:file-live': async ({ runId, path, download }) =>
      typed(() => live.file(runId, path, download === true)),
  };
}
