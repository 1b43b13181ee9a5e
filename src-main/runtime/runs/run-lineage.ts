/**
 * Where a fork or a resume starts: read from the parent's history and checked before
 * anything is created. A fork starts at a step the parent finished; a resume continues
 * a run whose history ends without `run.finished` (the app was killed) from its last
 * step, in the workspace it left behind.
 */
import type { RunEvent } from '@shared/events';
import type { RunForkInput, RunStartInput, RunSummary } from '@shared/ipc';
import type { RunHistory } from './run-history';

export type LineageRequest = ({ kind: 'fork' } & RunForkInput) | { kind: 'resume'; runId: string };

export interface RunLineage {
  kind: 'fork' | 'resume';
  from: { runId: string; step: number };
  /** the seq of the parent's event the state is taken at */
  seq: number;
  message?: string;
  agentModel?: string;
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
  if (isFlow && request.kind === 'resume') {
    throw new LineageError(
      'Resuming a PlanningFlow run is not supported yet; fork it at its last step instead',
      'conflict',
    );
  }
  const agent = started.agent;
  // A flow's steps count run-wide over its executors; its untagged steps go to manus.
  const base: RunStartInput = isFlow
    ? { task: started.task, agent: 'manus', flow: 'planning' }
    : { task: started.task, agent: agent as RunStartInput['agent'] };
  if (request.kind === 'fork') {
    const boundary = events.find(
      (e) => e.type === 'step.finished' && (isFlow || e.agent === agent) && e.step === request.step,
    );
    if (!boundary) {
      const last = lastStep(events, agent);
      throw new LineageError(
        `Run ${request.runId} has no finished step ${request.step} (its steps: 1-${last})`,
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
      },
    };
  }
  if (summary.finishedAt !== undefined || !summary.isInterrupted) {
    throw new LineageError(
      `Run ${request.runId} was not interrupted (it ${summary.finishedAt !== undefined ? 'finished' : 'is still running'}); fork it instead`,
      'conflict',
    );
  }
  const workspace = started.workspace;
  return {
    input: {
      ...base,
      maxSteps: started.maxSteps,
      sessionId: started.sessionId,
      // The folder the run worked in, as it was left: a copy is mounted, not copied again.
      ...(workspace
        ? { workspace: { path: workspace.copyPath ?? workspace.path, mode: 'mount' as const } }
        : {}),
    },
    lineage: {
      kind: 'resume',
      from: { runId: request.runId, step: lastStep(events, agent) },
      seq: events.at(-1)!.seq,
    },
  };
}

function lastStep(events: readonly RunEvent[], agent: string): number {
  const isFlow = events.some((e) => e.type === 'run.started' && e.flow);
  let step = 0;
  for (const e of events) {
    if (e.type === 'step.started' && (isFlow || e.agent === agent)) step = e.step;
  }
  return step;
}
