/**
 * Folds a run's events into its summary. Pure, so the run manager, the run history
 * index and the UI all derive the same summary from the same stream.
 *
 * - The run's state is the state of the agent the run started with (the planner of a
 *   flow): executors of plan steps have their own IDLE → RUNNING → FINISHED cycles, which
 *   must not make the whole run look finished between steps.
 * - `health` counts what went wrong along the way (docs/run-outcome.md).
 */
import type { RunEvent } from './events';
import type { RunHealth, RunSummary } from './ipc';
import { isToolFailure } from './run-outcome';

export const EMPTY_HEALTH: RunHealth = {
  toolCalls: 0,
  toolErrors: 0,
  stuck: 0,
  duplicates: 0,
  retries: 0,
};

function bump(summary: RunSummary, key: keyof RunHealth, by = 1): RunSummary {
  const health = summary.health ?? EMPTY_HEALTH;
  return { ...summary, health: { ...health, [key]: health[key] + by } };
}

export function applyToSummary(
  summary: RunSummary | undefined,
  event: RunEvent,
): RunSummary | undefined {
  if (event.type === 'run.started') {
    return {
      runId: event.runId,
      agent: event.agent,
      ...(event.agentDefinition?.source !== 'builtin' &&
      event.agentDefinition?.version !== undefined
        ? { agentVersion: event.agentDefinition.version }
        : {}),
      task: event.task,
      model: event.model,
      ...(event.flow ? { flow: event.flow } : {}),
      ...(event.forkOf ? { forkOf: event.forkOf } : {}),
      ...(event.resumeOf ? { resumeOf: event.resumeOf } : {}),
      ...(event.continueOf ? { continueOf: event.continueOf } : {}),
      ...(event.rerunOf ? { rerunOf: event.rerunOf } : {}),
      ...(event.rerunSettings ? { rerunSettings: event.rerunSettings } : {}),
      sessionId: event.sessionId,
      startedAt: event.ts,
      state: 'IDLE',
      steps: 0,
      maxSteps: event.maxSteps,
      usage: { prompt: 0, completion: 0 },
      health: EMPTY_HEALTH,
      ...(event.workspace ? { workspace: event.workspace } : {}),
      ...(event.batch ? { batch: event.batch } : {}),
    };
  }
  if (!summary) return summary;
  switch (event.type) {
    case 'state.changed':
      // Only the run's own agent: a flow's executors start and finish once per plan step.
      return event.agent === summary.agent ? { ...summary, state: event.to } : summary;
    case 'step.started':
      return { ...summary, steps: Math.max(summary.steps, event.step) };
    case 'memory.appended':
      return event.duplicate ? bump(summary, 'duplicates') : summary;
    case 'tool.finished': {
      const counted = bump(summary, 'toolCalls');
      return isToolFailure(event) ? bump(counted, 'toolErrors') : counted;
    }
    case 'stuck.detected':
      return bump(summary, 'stuck');
    case 'llm.retried':
      return bump(summary, 'retries');
    case 'llm.responded':
      return {
        ...summary,
        usage: {
          prompt: summary.usage.prompt + event.usage.prompt,
          completion: summary.usage.completion + event.usage.completion,
        },
      };
    case 'check.finished':
      return { ...summary, check: { ok: event.ok, exitCode: event.exitCode } };
    case 'run.paused':
      return { ...summary, isPaused: true };
    case 'run.resumed':
      return withoutPause(summary);
    case 'run.finished':
      return {
        ...withoutPause(summary),
        state: event.state,
        outcome: event.outcome,
        steps: event.steps,
        usage: event.usage,
        finishedAt: event.ts,
        ...(event.error !== undefined ? { error: event.error } : {}),
        ...(event.terminateStatus !== undefined ? { terminateStatus: event.terminateStatus } : {}),
      };
    default:
      return summary;
  }
}

export function summarize(events: readonly RunEvent[]): RunSummary | undefined {
  let summary: RunSummary | undefined;
  for (const event of events) summary = applyToSummary(summary, event);
  return summary;
}

function withoutPause(summary: RunSummary): RunSummary {
  if (!summary.isPaused) return summary;
  const { isPaused: _paused, ...rest } = summary;
  return rest;
}
