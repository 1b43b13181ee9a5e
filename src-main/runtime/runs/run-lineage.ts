/**
 * Where a fork or a resume starts: read from the parent's history and checked before
 * anything is created. A fork starts at a step the parent finished; a resume continues
 * a run whose history ends without `run.finished` (the app was killed) from its last
 * step, in the workspace it left behind. What needs the config, the checkpoints or the
 * file system is checked next, still before anything is recorded (launch/lineage-admission.ts).
 */
import { isAgentName } from '@shared/domain/agent';
import type { RunEvent } from '@shared/events';
import type { RunForkInput, RunStartInput, RunSummary } from '@shared/ipc';
import { lastActiveStep } from '@shared/step-progress';
import type { RunHistory } from './run-history';

export type LineageRequest = ({ kind: 'fork' } & RunForkInput) | { kind: 'resume'; runId: string };

export interface RunLineage {
  kind: 'fork' | 'resume';
  from: { runId: string; step: number };
  /** the seq of the parent's event the state is taken at */
  seq: number;
  message?: string;
  agentModel?: string;
  /** a fork that starts in an empty workspace, as the user asked (the step has no snapshot) */
  withoutFiles?: boolean;
  /** a resume in a copied workspace: the run that made the copy (never a path from a history) */
  workspaceCopyOf?: string;
}

/** Thrown when the run or step cannot be started from; the message says why. */
export class LineageError extends Error {
  constructor(
    message: string,
    readonly code: 'not_found' | 'conflict' | 'invalid_input',
  ) {
    super(message);
    this.name = 'LineageError';
  }
}

export function lineageInput(
  history: RunHistory,
  request: LineageRequest,
  summary: RunSummary | undefined,
): { input: RunStartInput; lineage: RunLineage } {
  const events = history.read(request.runId)?.events;
  const started = events?.find((e) => e.type === 'run.started');
  if (!events || !summary || started?.type !== 'run.started') {
    throw new LineageError(`No run ${request.runId} in the history`, 'not_found');
  }
  const isFlow = started.flow === 'planning';
  const agent = started.agent;
  const agentName = isAgentName(agent) ? agent : undefined;
  if (!isFlow && agentName === undefined) {
    throw new LineageError(
      `Run ${request.runId} names an agent this app does not have ("${agent}")`,
      'invalid_input',
    );
  }
  // A flow's steps count run-wide over its executors; its untagged steps go to manus.
  const base: RunStartInput = isFlow
    ? { task: started.task, agent: 'manus', flow: 'planning' }
    : { task: started.task, ...(agentName ? { agent: agentName } : {}) };
  if (request.kind === 'fork') return forkInput(request, events, base, isFlow);
  if (isFlow) {
    throw new LineageError(
      'Resuming a PlanningFlow run is not supported yet; fork it at its last step instead',
      'conflict',
    );
  }
  if (summary.isImported) {
    throw new LineageError(
      `Run ${request.runId} was imported: the workspace and session its history names belong to the machine it was recorded on, so it cannot be resumed here. Fork it at its last step instead (workbench runs fork ${request.runId} --at STEP --without-files).`,
      'conflict',
    );
  }
  if (summary.finishedAt !== undefined || !summary.isInterrupted) {
    throw new LineageError(
      `Run ${request.runId} was not interrupted (it ${summary.finishedAt !== undefined ? 'finished' : 'is still running'}); fork it instead`,
      'conflict',
    );
  }
  const workspace = started.workspace;
  const copyOf = workspace?.mode === 'copy' ? copyOwner(history, request.runId) : undefined;
  const last = events.at(-1)!;
  return {
    input: {
      ...base,
      maxSteps: started.maxSteps,
      sessionId: started.sessionId,
      // The folder the run worked in, as it was left: mounted again (through the
      // workspace gate), or the copy found by the id of the run that made it.
      ...(workspace ? { workspace: { path: workspace.path, mode: workspace.mode } } : {}),
    },
    lineage: {
      kind: 'resume',
      // the last step that did something: one killed before its first message runs again
      from: { runId: request.runId, step: lastActiveStep(events, agent) },
      seq: last.seq,
      ...(copyOf ? { workspaceCopyOf: copyOf } : {}),
    },
  };
}

function forkInput(
  request: { kind: 'fork' } & RunForkInput,
  events: readonly RunEvent[],
  base: RunStartInput,
  isFlow: boolean,
): { input: RunStartInput; lineage: RunLineage } {
  const agent = base.agent ?? 'manus';
  const boundary = events.find(
    (e) => e.type === 'step.finished' && (isFlow || e.agent === agent) && e.step === request.step,
  );
  if (!boundary) {
    const last = lastStep(events, agent, isFlow);
    throw new LineageError(
      `Run ${request.runId} has no finished step ${request.step} (its steps: ${last > 0 ? `1-${last}` : 'none'})`,
      'invalid_input',
    );
  }
  if (request.maxSteps !== undefined && request.maxSteps <= request.step) {
    throw new LineageError(
      `--max-steps (${request.maxSteps}) must be more than the step the fork starts from (${request.step})`,
      'invalid_input',
    );
  }
  return {
    input: { ...base, ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}) },
    lineage: {
      kind: 'fork',
      from: { runId: request.runId, step: request.step },
      seq: boundary.seq,
      ...(request.message ? { message: request.message } : {}),
      ...(request.agentModel ? { agentModel: request.agentModel } : {}),
      ...(request.withoutFiles ? { withoutFiles: true } : {}),
    },
  };
}

/**
 * The run that made the copy a resumed run worked on: a resume works on its parent's
 * copy, so the chain of `resumeOf` leads back to the run that copied the folder. Every
 * run on the way must be in this history and made here (not imported).
 */
function copyOwner(history: RunHistory, runId: string): string {
  const seen = new Set<string>();
  let current = runId;
  for (;;) {
    if (seen.has(current)) {
      throw new LineageError(`Run ${runId}: its resume chain loops at ${current}`, 'conflict');
    }
    seen.add(current);
    const summary = history.summary(current);
    if (!summary || summary.isImported) {
      throw new LineageError(
        `Run ${runId} worked on a copy made by run ${current}, which is ${summary ? 'imported' : 'no longer in the history'}; fork it at its last step instead`,
        'conflict',
      );
    }
    const parent = summary.resumeOf?.runId;
    if (parent === undefined) return current;
    current = parent;
  }
}

function lastStep(events: readonly RunEvent[], agent: string, isFlow: boolean): number {
  let step = 0;
  for (const e of events) {
    if (e.type === 'step.finished' && (isFlow || e.agent === agent)) step = e.step;
  }
  return step;
}
