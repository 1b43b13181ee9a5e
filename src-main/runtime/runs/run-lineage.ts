/**
 * Where a fork, a resume or a continuation starts: read from the parent's history and
 * checked before anything is created. A fork starts at a step the parent finished; a
 * resume continues a run whose history ends without `run.finished` (the app was killed)
 * from its last step, in the workspace it left behind; a continuation goes on with a
 * finished run after its last step, with the user's follow-up message, in the same
 * session and workspace. What needs the config, the checkpoints or the file system is
 * checked next, still before anything is recorded (launch/lineage-admission.ts).
 */
import { basename } from 'node:path';
import { isAgentName } from '@shared/domain/agent';
import { isWarmPoolSessionId } from '@shared/domain/ids';
import type { RunEvent } from '@shared/events';
import type { RunContinueInput, RunForkInput, RunStartInput, RunSummary } from '@shared/ipc';
import { lastActiveStep } from '@shared/step-progress';
import { whyAgentCannotStart } from '@shared/run-agent';
import { userAgentOf } from './recorded-agent';
import type { RunHistory } from './run-history';

export type LineageRequest =
  | ({ kind: 'fork' } & RunForkInput)
  | { kind: 'resume'; runId: string }
  | ({ kind: 'continue' } & RunContinueInput);

export interface RunLineage {
  kind: 'fork' | 'resume' | 'continue';
  from: { runId: string; step: number };
  /** the seq of the parent's event the state is taken at */
  seq: number;
  message?: string;
  agentModel?: string;
  /** a fork that starts in an empty workspace, as the user asked (the step has no snapshot) */
  withoutFiles?: boolean;
  /**
   * a resume or continuation in a copied workspace: the run that made the copy (never a
   * path from a history)
   */
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
  // a user's agent (docs/agents.md): the version it ran, from the versions kept at home
  const own = userAgentOf(started);
  if (!isFlow && agentName === undefined && own === undefined) {
    throw new LineageError(
      whyAgentCannotStart(request.runId, summary) ??
        `Run ${request.runId} names an agent this app does not have ("${agent}")`,
      'invalid_input',
    );
  }
  // A flow's steps count run-wide over its executors; its untagged steps go to manus.
  const base: RunStartInput = isFlow
    ? { task: started.task, agent: 'manus', flow: 'planning' }
    : { task: started.task, ...(agentName ? { agent: agentName } : {}), ...own };
  if (request.kind === 'fork') return forkInput(request, events, base, isFlow, agent);
  const verb = request.kind === 'resume' ? 'resumed' : 'continued';
  if (isFlow) {
    throw new LineageError(
      request.kind === 'resume'
        ? 'Resuming a PlanningFlow run is not supported yet; fork it at its last step instead'
        : 'Continuing a PlanningFlow run is not supported: its plan is done and a follow-up has no plan step to go to. Start a new run (or a new flow) with the follow-up as its task',
      'conflict',
    );
  }
  if (summary.isImported) {
    throw new LineageError(
      `Run ${request.runId} was imported: the workspace and session its history names belong to the machine it was recorded on, so it cannot be ${verb} here. Fork it at its last step instead (workbench runs fork ${request.runId} --at STEP --without-files).`,
      'conflict',
    );
  }
  if (request.kind === 'continue') return continueInput(history, request, events, summary, base);
  if (summary.finishedAt !== undefined || !summary.isInterrupted) {
    throw new LineageError(
      `Run ${request.runId} was not interrupted (it ${summary.finishedAt !== undefined ? 'finished' : 'is still running'}); ${summary.finishedAt !== undefined ? `continue it (workbench runs continue ${request.runId} "...") or fork it` : 'wait for it to end'}`,
      'conflict',
    );
  }
  return {
    input: { ...base, maxSteps: started.maxSteps, ...sameWorkspace(started) },
    lineage: {
      kind: 'resume',
      // the last step that did something: one killed before its first message runs again
      from: { runId: request.runId, step: lastActiveStep(events, agent) },
      seq: events.at(-1)!.seq,
      ...copyOf(history, request.runId, started),
    },
  };
}

/**
 * A finished run goes on: whatever its outcome (finished, out of steps, an error, stopped),
 * its whole memory plus the follow-up message, after its last step, with a fresh step
 * budget (`maxSteps`: how many more steps; the agent's max_steps when not given), in the
 * same session and workspace, on the profile the run used.
 */
function continueInput(
  history: RunHistory,
  request: { kind: 'continue' } & RunContinueInput,
  events: readonly RunEvent[],
  summary: RunSummary,
  base: RunStartInput,
): { input: RunStartInput; lineage: RunLineage } {
  const { runId } = request;
  const started = events.find((e) => e.type === 'run.started');
  if (started?.type !== 'run.started') throw new LineageError(`No run ${runId}`, 'not_found');
  const message = request.message.trim();
  if (message === '') {
    throw new LineageError('Write a message to continue the run with', 'invalid_input');
  }
  const finished = events.at(-1)?.type === 'run.finished';
  if (!finished) {
    const why = summary.isInterrupted
      ? `was interrupted (the app stopped while it ran); resume it instead (workbench runs resume ${runId})`
      : summary.isPaused
        ? 'is paused in the debugger; resume or stop it first'
        : 'is still running; wait for it to end or stop it first';
    throw new LineageError(`Run ${runId} cannot be continued: it ${why}`, 'conflict');
  }
  const agent = base.agent ?? 'manus';
  if (!events.some((e) => e.type === 'memory.appended' && e.agent === agent)) {
    throw new LineageError(
      `Run ${runId} cannot be continued: it ended before its agent had a conversation (${summary.error ?? 'no messages'}). Start a new run instead`,
      'conflict',
    );
  }
  const profile = started.settings?.['llm.profile'];
  return {
    input: {
      // the follow-up is what this run is asked to do (the run's task stays in its memory)
      task: message,
      ...(base.agent ? { agent: base.agent } : {}),
      ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
      ...sameWorkspace(started),
    },
    lineage: {
      kind: 'continue',
      from: { runId, step: lastActiveStep(events, agent) },
      seq: events.at(-1)!.seq,
      message,
      ...(typeof profile === 'string' ? { agentModel: profile } : {}),
      ...copyOf(history, runId, started),
    },
  };
}

/**
 * The session and folder the run worked in, as it was left: mounted again (through the
 * workspace gate), or the copy found by the id of the run that made it.
 */
function sameWorkspace(
  started: Extract<RunEvent, { type: 'run.started' }>,
): Partial<RunStartInput> {
  const workspace = started.workspace;
  return {
    sessionId: started.sessionId,
    // a copy in the session's own folder goes on in that session, as a run without one
    ...(workspace && !isCopyInSession(started)
      ? { workspace: { path: workspace.path, mode: workspace.mode } }
      : {}),
  };
}

/**
 * A batch run that took a warm pool's sandbox had its task folder copied into its
 * session's own folder (`workspaces/<session>`, sandbox/warm-pool.ts), not into a
 * `copy-<runId>` session: that session is where its files are. Only a batch run in a
 * pool's session is taken for one; any other history that says its copy is some
 * session's folder goes the copy's way (its own `copy-<runId>`, or refused), never into
 * the session it names (host-folder-entry-points.test.ts).
 */
function isCopyInSession(started: Extract<RunEvent, { type: 'run.started' }>): boolean {
  const copyPath = started.workspace?.copyPath;
  return (
    started.workspace?.mode === 'copy' &&
    started.batch !== undefined &&
    isWarmPoolSessionId(started.sessionId) &&
    copyPath !== undefined &&
    basename(copyPath) === started.sessionId
  );
}

function copyOf(
  history: RunHistory,
  runId: string,
  started: Extract<RunEvent, { type: 'run.started' }>,
): { workspaceCopyOf?: string } {
  return started.workspace?.mode === 'copy' && !isCopyInSession(started)
    ? { workspaceCopyOf: copyOwner(history, runId) }
    : {};
}

function forkInput(
  request: { kind: 'fork' } & RunForkInput,
  events: readonly RunEvent[],
  base: RunStartInput,
  isFlow: boolean,
  /** the agent named in the parent's events */
  agent: string,
): { input: RunStartInput; lineage: RunLineage } {
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
    input: {
      ...base,
      ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
      // "fork with the new prompt": another version (or agent) runs the next steps
      ...(request.agentRef !== undefined ? { agentRef: request.agentRef } : {}),
    },
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
 * The run that made the copy a resumed or continued run worked on: a resume or a
 * continuation works on its parent's copy, so the chain of `resumeOf` / `continueOf`
 * leads back to the run that copied the folder. Every run on the way must be in this
 * history and made here (not imported).
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
        `Run ${runId} worked on a copy made by run ${current}, which is ${summary ? 'imported' : 'no longer in the history'} (the copy went with it); fork it at its last step instead`,
        'conflict',
      );
    }
    const parent = summary.resumeOf?.runId ?? summary.continueOf?.runId;
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
