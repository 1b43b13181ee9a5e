/**
 * The line `workbench run` (and fork, resume) prints under `▶ run` to say where the run's
 * files are on the host (issue 25 item 11): the folder chosen with --workspace, or the
 * run's session folder under WORKBENCH_HOME, which a run without one works in and leaves
 * its files in. Said only for runs whose agents use the sandbox: the others touch no folder.
 */
import { join } from 'node:path';
import { isAgentName } from '@shared/domain/agent';
import type { RunEvent } from '@shared/events';
import { SANDBOX_NEED } from '../runtime/agents/sandbox-need';
import { terminalSafe } from './terminal-text';

type RunStarted = Extract<RunEvent, { type: 'run.started' }>;

export function workspaceLine(home: string): (event: RunStarted) => string | undefined {
  return (event) => {
    const { workspace } = event;
    if (workspace) {
      const where =
        workspace.mode === 'copy'
          ? `a copy of ${workspace.path} at ${workspace.copyPath ?? '(not made yet)'}`
          : `${workspace.path} (mounted read-write)`;
      return terminalSafe(`  workspace: ${where}, seen at /workspace`);
    }
    const usesSandbox =
      event.flow !== undefined || !isAgentName(event.agent) || SANDBOX_NEED[event.agent] !== 'none';
    if (!usesSandbox) return undefined;
    const folder = join(home, 'workspaces', event.sessionId);
    return terminalSafe(`  workspace: ${folder} (this run's session folder, seen at /workspace)`);
  };
}
