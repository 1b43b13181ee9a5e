/**
 * `runs:delete`: a run leaves the history with everything kept for it. A live run is
 * stopped first. Its files go (log, owner mark, title; the isolated copy of its
 * workspace), and so does its container when the run had a session of its own (a chosen
 * or copied workspace) that no other live run uses. The app's shared session keeps its
 * container: other runs work in it.
 */
import type { RunDeleteResult } from '@shared/ipc';
import type { Runtime } from '../runtime/runtime';
import { HandlerError } from './handler-error';

export async function deleteRun(runtime: Runtime, runId: string): Promise<RunDeleteResult> {
  const { runs, services } = runtime;
  const wasStopped = runs.isRunning(runId);
  const { removed, summary } = await runs.remove(runId);
  if (!removed) throw new HandlerError('not_found', `No run with id ${runId}`);
  const result: RunDeleteResult = { deleted: true, wasStopped };
  const sessionId = summary?.sessionId;
  const isShared =
    sessionId === runtime.sessionId ||
    runs.list().some((s) => s.sessionId === sessionId && runs.isRunning(s.runId));
  // An imported run's session id came from another machine: it names no session of ours.
  if (sessionId && !isShared && !summary?.isImported && services.sessions.get(sessionId)) {
    await services.sessions.close(sessionId);
    result.closedSession = sessionId;
  }
  // Its isolated copy went with RunManager.remove (named by the run id, not a history path).
  return result;
}
