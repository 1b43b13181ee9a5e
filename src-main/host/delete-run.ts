/**
 * `runs:delete`: a run leaves the history with everything kept for it. A live run is
 * stopped first. Its files go (log, owner mark, title; the isolated copy of its
 * workspace), and so does its container when the run had a session of its own (a chosen
 * or copied workspace) that no other live run uses. The app's shared session keeps its
 * container: other runs work in it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDeleteResult } from '@shared/ipc';
import type { Runtime } from '../runtime/runtime';
import { isWithin } from '../runtime/util/contained-path';
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
  if (sessionId && !isShared && services.sessions.get(sessionId)) {
    await services.sessions.close(sessionId);
    result.closedSession = sessionId;
  }
  const copy = summary?.workspace?.mode === 'copy' ? summary.workspace.copyPath : undefined;
  const workspaces = join(services.home, 'workspaces');
  if (copy && isWithin(workspaces, copy) && copy !== workspaces) {
    rmSync(copy, { recursive: true, force: true });
  }
  return result;
}
