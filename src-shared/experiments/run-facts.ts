/**
 * What the scorers and the experiment report read of a run's history: its final answer
 * (the last text the run's own agent said), and its trajectory figures (steps, tokens,
 * cost, time, tool errors, stuck detections, duplicate responses).
 */
import type { RunEvent } from '../events';
import { estimateCostUsd } from '../pricing';
import { summarize } from '../run-summary';

/** The last non-empty assistant text of the run's own agent, or undefined. */
export function runAnswer(events: readonly RunEvent[]): string | undefined {
  const started = events.find((e) => e.type === 'run.started');
  const agent = started?.type === 'run.started' ? started.agent : undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type !== 'llm.responded') continue;
    if (agent !== undefined && event.agent !== agent) continue;
    const text = event.content?.trim();
    if (text) return text;
  }
  return undefined;
}

export interface TrajectoryFacts {
  steps: number;
  tokens: number;
  /** USD at list prices; null when a model of the run has no known price */
  costUsd: number | null;
  /** from run.started to run.finished (or the last event, before it) */
  durationMs: number;
  toolErrors: number;
  stuck: number;
  duplicates: number;
}

export function trajectoryFacts(events: readonly RunEvent[]): TrajectoryFacts {
  const summary = summarize(events);
  let costUsd: number | null = 0;
  for (const event of events) {
    if (event.type !== 'llm.responded') continue;
    const cost = estimateCostUsd(event.model, event.usage);
    costUsd = cost === null || costUsd === null ? null : costUsd + cost;
  }
  const first = events[0]?.ts ?? 0;
  const finished = events.find((e) => e.type === 'run.finished');
  const last = finished?.ts ?? events[events.length - 1]?.ts ?? first;
  return {
    steps: summary?.steps ?? 0,
    tokens: summary ? summary.usage.prompt + summary.usage.completion : 0,
    costUsd,
    durationMs: last - first,
    toolErrors: summary?.health?.toolErrors ?? 0,
    stuck: summary?.health?.stuck ?? 0,
    duplicates: summary?.health?.duplicates ?? 0,
  };
}
