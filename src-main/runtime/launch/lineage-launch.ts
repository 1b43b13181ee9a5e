/**
 * The launch side of time travel (docs/time-travel.md): a fork gets a fresh session whose
 * sandbox is restored to the parent's files at the fork step, and the parent's context
 * rebuilt from its history; a resume gets the interrupted run's context, each unanswered tool call
 * answered "interrupted", in the workspace the run left behind; a continuation gets the
 * finished run's whole memory and the user's follow-up, in the same session and workspace.
 */
import type { Message } from '@shared/domain/message';
import type { WorkbenchConfig } from '../config/schema';
import type { RuntimeServices } from '../agents/runtime-services';
import type { ResumePoint } from '../loop/base-agent';
import { toolMessage, userMessage } from '../loop/messages';
import type { ResolvedRunInput, RunContext } from '../runs/run-manager';
import type { RunLineage } from '../runs/run-lineage';
import { rebuildAgentState, toResumePoint } from '../timetravel/agent-state';
import { rebuildFlowState } from '../timetravel/flow-state';
import type { FlowResumePoint } from '../flow/planning-flow';
import { restoreWorkspace } from '../timetravel/workspace-restore';
import type { RunSession } from './run-session';

export const INTERRUPTED_OBSERVATION =
  'Interrupted: the app was stopped before this call finished. What it did before that, if ' +
  'anything, is in the workspace; check before relying on it, and run it again if needed.';

/** A call a finished run left without an answer (never at a run's normal end). */
export const ENDED_OBSERVATION =
  'Not finished: the run ended before this call returned. What it did before that, if ' +
  'anything, is in the workspace; check before relying on it.';

/**
 * A fork's own session: a fresh workspace and container, closed when the fork ends. The
 * step's files are restored when a snapshot of them is kept; lineage-admission.ts has
 * already refused a fork that needs them and has none, so no snapshot here means the
 * parent had no files then, or the user asked for an empty workspace.
 */
export async function openForkSession(
  services: RuntimeServices,
  config: WorkbenchConfig,
  lineage: RunLineage,
  context: RunContext,
  signal?: AbortSignal,
): Promise<RunSession> {
  const session = services.sessions.open(`fork-${context.runId}`);
  const release = () => services.sessions.close(session.id);
  try {
    const store = context.checkpoints;
    const { runId, step } = lineage.from;
    const hasSnapshots = (store?.list(runId).length ?? 0) > 0 || store?.evictedNote(runId);
    if (store && hasSnapshots && !lineage.withoutFiles) {
      const chain = store.chain(runId, step);
      const sandbox = await services.sandboxes.acquire(
        session,
        config.sandbox,
        signal ? { signal } : {},
      );
      await restoreWorkspace(
        {
          engine: services.sandboxes.engine,
          containerId: sandbox.id,
          user: sandbox.user,
          workDir: sandbox.workDir,
        },
        chain.archives,
        chain.metas.at(-1)!.manifest,
        signal ? { signal } : {},
      );
    }
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  return { session, release };
}

/** The agent's state to start from, with what the lineage appends after it. */
export function lineageResumePoint(
  input: ResolvedRunInput,
  lineage: RunLineage,
  context: RunContext,
): ResumePoint {
  const events = context.readRun?.(lineage.from.runId);
  if (!events) throw new Error(`No run ${lineage.from.runId} in the history`);
  const from = lineage.from.runId;
  const readImage = context.readImage;
  // the agent as the parent's events name it (a user's agent by its own name; a fork
  // may go on with another version or agent: docs/agents.md)
  const started = events.find((e) => e.type === 'run.started');
  const state = rebuildAgentState(
    events,
    started?.type === 'run.started' ? started.agent : input.agent,
    lineage.seq,
    readImage && ((ref) => readImage(from, ref)),
  );
  const append: Message[] = [];
  if (lineage.kind !== 'fork') {
    // Memory invariant: every tool call is answered, also the ones the kill cut short.
    const answer = lineage.kind === 'resume' ? INTERRUPTED_OBSERVATION : ENDED_OBSERVATION;
    for (const call of state.unanswered) append.push(toolMessage(answer, call.id, call.name));
  }
  if (lineage.message) append.push(userMessage(lineage.message));
  return toResumePoint(state, append);
}

/** A forked flow's starting point: the plan, the planner's memory, the steps used. */
export function flowResumePoint(lineage: RunLineage, context: RunContext): FlowResumePoint {
  const events = context.readRun?.(lineage.from.runId);
  if (!events) throw new Error(`No run ${lineage.from.runId} in the history`);
  return rebuildFlowState(events, lineage.seq, lineage.from.step, lineage.message);
}

/**
 * A continuation's step limit: a fresh budget after the step it starts from, `budget`
 * more steps (the user's `--max-steps`, else the agent's max_steps); steps count on
 * from the parent's, so the limit is that step plus the budget.
 */
export function continuationMaxSteps(step: number, budget: number): number {
  return step + budget;
}

/** The step limit of a run that starts at `step`: room for more steps, unless the user set one. */
export function lineageMaxSteps(configured: number, step: number, requested?: number): number {
  if (requested !== undefined) {
    if (requested <= step) {
      throw new Error(`--max-steps must be more than the step the run starts from (${step})`);
    }
    return requested;
  }
  return configured > step ? configured : step + configured;
}
