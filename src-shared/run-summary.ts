/**
 * Folds a run's events into its summary. Pure, so the run manager, the run history
 * index and the UI all derive the same summary from the same stream.
 */
import type { RunEvent } from './events';
import type { RunSummary } from './ipc';

export function applyToSummary(
  summary: RunSummary | undefined,
  event: RunEvent,
): RunSummary | undefined {
  if (event.type === 'run.started') {
    return {
      runId: event.runId,
      agent: event.agent,
      task: event.task,
      model: event.model,
      ...(event.flow ? { flow: event.flow } : {}),
      sessionId: event.sessionId,
      startedAt: event.ts,
      state: 'IDLE',
      steps: 0,
      maxSteps: event.maxSteps,
      usage: { prompt: 0, completion: 0 },
    };
  }
  if (!summary) return summary;
  switch (event.type) {
    case 'state.changed':
      // A flow has several agents; the run's state is the last transition seen.
      return { ...summary, state: event.to };
    case 'step.started':
      return { ...summary, steps: Math.max(summary.steps, event.step) };
    case 'llm.responded':
      return {
        ...summary,
        usage: {
          prompt: summary.usage.prompt + event.usage.prompt,
          completion: summary.usage.completion + event.usage.completion,
        },
      };
    case 'run.finished':
      return {
        ...summary,
        state: event.state,
        outcome: event.outcome,
        steps: event.steps,
        usage: event.usage,
        finishedAt: event.ts,
        ...(event.error !== undefined ? { error: event.error } : {}),
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
