/**
 * What a fork or a resume must satisfy before anything is recorded (issue 24 items 2, 6
 * and 9): a refusal here is a typed LineageError (the CLI exits 2, the UI shows it in
 * place) and leaves no run in the history, no workspace and no container behind.
 *
 * - a fork's model profile exists;
 * - a fork restores the step's files, or says it cannot: when the parent had files by
 *   that step (a chosen folder, a sandbox that had started, snapshots of other steps, or
 *   an imported history that carries none) and no snapshot of that step is kept, it is
 *   refused unless the user asked for an empty workspace (`--without-files`);
 * - a resume's or a continuation's workspace passes the same gate as a folder chosen for
 *   a new run, and a copy it worked on is the one its run made;
 * - a continuation's session folder (a run without a chosen folder) is still there: it
 *   goes on in the files as the run left them, never in a fresh empty folder;
 * - a continuation's model profile (the one the run used) is still in the config.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '@shared/events';
import type { RunStartInput, RunSummary } from '@shared/ipc';
import type { RuntimeServices } from '../agents/runtime-services';
import type { CheckpointStore } from '../runs/checkpoint-store';
import { LineageError, type RunLineage } from '../runs/run-lineage';
import { admitWorkspace, WorkspaceRefusedError } from './workspace-gate';
import { assertNotSymlink, assertRealInside } from '../util/contained-path';

export interface LineageAdmissionInput {
  input: RunStartInput;
  lineage: RunLineage;
  parent: { summary: RunSummary; events: readonly RunEvent[] };
}

export async function admitLineage(
  services: RuntimeServices,
  checkpoints: CheckpointStore | undefined,
  { input, lineage, parent }: LineageAdmissionInput,
): Promise<void> {
  // A config that does not load is the caller's usage error (ConfigError), as for a run.
  const config = services.loadConfig();
  if (lineage.agentModel !== undefined) {
    try {
      services.config.resolveNamedProfile(lineage.agentModel, config);
    } catch (error) {
      throw new LineageError(
        lineage.kind === 'continue'
          ? `Run ${lineage.from.runId} used the model profile "${lineage.agentModel}", which cannot be used now: ${(error as Error).message}. Add it back to config.toml, or fork the run at its last step with another profile (--agent-model)`
          : `The fork's model profile "${lineage.agentModel}" cannot be used: ${(error as Error).message}`,
        'invalid_input',
      );
    }
  }
  if (lineage.kind === 'fork') {
    if (!lineage.withoutFiles) checkForkFiles(checkpoints, lineage, parent);
    return;
  }
  const verb = lineage.kind === 'resume' ? 'resumed' : 'continued';
  const workspacesDir = join(services.home, 'workspaces');
  if (lineage.workspaceCopyOf !== undefined) {
    checkCopy(workspacesDir, lineage.workspaceCopyOf, lineage.from.runId);
  } else if (input.workspace) {
    try {
      await admitWorkspace(input.workspace, { home: services.home, settings: config.sandbox });
    } catch (error) {
      if (!(error instanceof WorkspaceRefusedError)) throw error;
      throw new LineageError(
        `Run ${lineage.from.runId} cannot be ${verb} in its workspace: ${error.message}`,
        'conflict',
      );
    }
  } else if (lineage.kind === 'continue') {
    checkSessionFolder(workspacesDir, input.sessionId, lineage.from.runId);
  }
}

/**
 * A continuation of a run that worked in a session folder (`workspaces/<session>`) goes
 * on in that folder; opening the session would make it again, empty, so a folder that is
 * gone (deleted with its fork, removed by hand) is refused here.
 */
function checkSessionFolder(workspacesDir: string, sessionId: string | undefined, runId: string) {
  const folder = join(workspacesDir, sessionId ?? '');
  let isFolder: boolean;
  try {
    assertNotSymlink(folder, 'The session folder');
    assertRealInside(workspacesDir, folder, 'The session folder');
    isFolder = statSync(folder).isDirectory();
  } catch {
    isFolder = false;
  }
  if (sessionId === undefined || !isFolder) {
    throw new LineageError(
      `Run ${runId} cannot be continued: the workspace it worked in (${folder}) is gone, and a continuation goes on in the files the run left. Fork it at its last step instead (it restores the files from a snapshot), or start a new run`,
      'conflict',
    );
  }
}

/** Throws when the fork would start without the files its step had. */
function checkForkFiles(
  checkpoints: CheckpointStore | undefined,
  lineage: RunLineage,
  parent: LineageAdmissionInput['parent'],
): void {
  const { runId, step } = lineage.from;
  const why = missingSnapshot(checkpoints, runId, step);
  if (why === undefined) return;
  const hadFiles = filesBefore(checkpoints, lineage, parent);
  if (hadFiles === undefined) return;
  const kept = (checkpoints?.list(runId) ?? []).map((m) => m.step);
  throw new LineageError(
    `Run ${runId} cannot be forked at step ${step} with its files: ${why}, and the run had files by then (${hadFiles}). ` +
      `${kept.length > 0 ? `Steps with a snapshot: ${rangeText(kept)}. ` : ''}` +
      'Fork a step that has one, or fork without files to start from an empty workspace (--without-files).',
    'conflict',
  );
}

/** Why the step's files cannot be restored, or undefined when they can. */
function missingSnapshot(
  checkpoints: CheckpointStore | undefined,
  runId: string,
  step: number,
): string | undefined {
  if (!checkpoints) return 'this history keeps no snapshots';
  const evicted = checkpoints.evictedNote(runId);
  if (evicted) return evicted.replace(/^Run \S+: /, '').replace(/\.$/, '');
  if (!checkpoints.list(runId).some((m) => m.step === step)) {
    return `no snapshot of step ${step} was kept (the step was cut short by a stop, or its snapshot failed, was skipped or was turned off)`;
  }
  let chain;
  try {
    chain = checkpoints.chain(runId, step);
  } catch (error) {
    return (error as Error).message.replace(/^Run \S+:? /, '');
  }
  const lost = chain.archives.find((file) => !existsSync(file));
  return lost ? `a snapshot archive it needs is gone (${lost})` : undefined;
}

/**
 * Why the parent had files at the fork step (so an empty workspace would not be what it
 * saw), or undefined when it had none: no chosen folder, no sandbox yet, no snapshots.
 */
function filesBefore(
  checkpoints: CheckpointStore | undefined,
  lineage: RunLineage,
  parent: LineageAdmissionInput['parent'],
): string | undefined {
  const { summary, events } = parent;
  if (summary.isImported) return 'an imported run carries no snapshots';
  if (summary.workspace) return `it worked in ${summary.workspace.path}`;
  if ((checkpoints?.list(lineage.from.runId).length ?? 0) > 0) {
    return 'snapshots of other steps were taken';
  }
  const sandbox = events.find(
    (e) =>
      e.seq <= lineage.seq &&
      e.type === 'sandbox.changed' &&
      (e.status === 'ready' || e.status === 'busy' || e.status === 'idle'),
  );
  return sandbox ? 'its sandbox had started' : undefined;
}

/** The copy a resumed run worked on must still be the folder its run made. */
function checkCopy(workspacesDir: string, owner: string, runId: string): void {
  const copy = join(workspacesDir, `copy-${owner}`);
  try {
    assertNotSymlink(copy, 'The copy');
    assertRealInside(workspacesDir, copy, 'The copy');
  } catch (error) {
    throw new LineageError(
      `Run ${runId} worked on a copy of its folder (${copy}) that is gone or unusable: ${(error as Error).message}. Fork it at its last step instead.`,
      'conflict',
    );
  }
}

function rangeText(steps: number[]): string {
  return steps.length <= 6
    ? steps.join(', ')
    : `${steps.slice(0, 5).join(', ')}, … ${steps.at(-1)}`;
}
