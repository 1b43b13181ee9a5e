/**
 * Workspaces a run made for itself (`workspaces/fork-<runId>`, `workspaces/copy-<runId>`)
 * are created before the run's first event is written: a fork restores its files, a copy
 * is made, then `run.started` is recorded. A process killed in between (kill -9 during a
 * 264 MB restore, issue 24 item 7) left a folder no history names, which `runs delete`
 * could not reach. RunManager claims the run id (`<runId>.owner`, run-owner.ts) before
 * its factory runs, so such a folder is an orphan exactly when its run has no history and
 * no live process owns the id; the next start removes it.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunId } from '@shared/domain/ids';
import { isClaimedHere, isOwnedByLiveProcess, releaseRun } from './run-owner';

/** Prefixes of the workspace folders that belong to one run, named by its id. */
const RUN_OWNED = ['fork-', 'copy-'];
/** The ids RunManager makes (newRunId): only such folders were made for a run here. */
const NEW_RUN_ID = /^\d{8}T\d{6}-[0-9a-f]{8}$/;

/** Removes the orphans; returns the folders removed. */
export function sweepOrphanWorkspaces(workspacesDir: string, runsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(workspacesDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const prefix = RUN_OWNED.find((p) => name.startsWith(p));
    const runId = prefix ? name.slice(prefix.length) : '';
    if (!NEW_RUN_ID.test(runId) || !isRunId(runId)) continue;
    if (existsSync(join(runsDir, `${runId}.jsonl`))) continue;
    // (a runtime opened again in this process must not take a run this one is starting)
    if (isOwnedByLiveProcess(runsDir, runId) || isClaimedHere(runsDir, runId)) continue;
    rmSync(join(workspacesDir, name), { recursive: true, force: true });
    releaseRun(runsDir, runId);
    removed.push(name);
  }
  return removed;
}
