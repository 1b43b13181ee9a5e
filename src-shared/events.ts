/**
 * RunEvent: the one event format (DESIGN section 2). The same stream is the live view,
 * the persisted history (one JSONL line per event), the replay source and the CLI's
 * `--jsonl` output, so everything here is plain JSON.
 *
 * The payloads are declared by family in ./events/ (run, step, model, tool, sandbox,
 * debugger, time travel); this file holds the union, the envelope and the helpers, and
 * re-exports every family so `@shared/events` stays the one import.
 */
import type {
  CheckFinishedEvent,
  PlanUpdatedEvent,
  RunFinishedEvent,
  RunStartedEvent,
  StateChangedEvent,
} from './events/run-events';
import type {
  MemoryAppendedEvent,
  MemoryTruncatedEvent,
  StepFinishedEvent,
  StepStartedEvent,
  StuckDetectedEvent,
} from './events/step-events';
import type {
  LlmDeltaEvent,
  LlmQueuedEvent,
  LlmRequestedEvent,
  LlmRespondedEvent,
  LlmRetriedEvent,
} from './events/model-events';
import type {
  HumanAnsweredEvent,
  HumanRequestedEvent,
  McpLogEvent,
  ToolFinishedEvent,
  ToolOutputEvent,
  ToolProgressEvent,
  ToolStartedEvent,
} from './events/tool-events';
import type { SandboxChangedEvent } from './events/sandbox-events';
import type {
  BreakpointsChangedEvent,
  RunEditedEvent,
  RunPausedEvent,
  RunResumedEvent,
} from './events/debugger-events';
import type { CheckpointLimitedEvent } from './events/timetravel-events';
import type { ScoreRecordedEvent } from './events/score-events';
import type { ReplayDivergedEvent } from './events/gateway-events';

export * from './events/run-events';
export * from './events/step-events';
export * from './events/model-events';
export * from './events/tool-events';
export * from './events/sandbox-events';
export * from './events/debugger-events';
export * from './events/timetravel-events';
export * from './events/score-events';
export * from './events/gateway-events';

export const RUN_EVENT_VERSION = 1 as const;

/** An event as the runtime emits it, before the run stamps the envelope on it. */
export type RunEventPayload =
  | RunStartedEvent
  | StateChangedEvent
  | StepStartedEvent
  | StepFinishedEvent
  | MemoryAppendedEvent
  | MemoryTruncatedEvent
  | LlmRequestedEvent
  | LlmDeltaEvent
  | LlmRespondedEvent
  | LlmRetriedEvent
  | ToolStartedEvent
  | ToolFinishedEvent
  | ToolProgressEvent
  | ToolOutputEvent
  | StuckDetectedEvent
  | SandboxChangedEvent
  | PlanUpdatedEvent
  | HumanRequestedEvent
  | HumanAnsweredEvent
  | RunFinishedEvent
  | RunPausedEvent
  | RunResumedEvent
  | RunEditedEvent
  | BreakpointsChangedEvent
  | CheckFinishedEvent
  | LlmQueuedEvent
  | CheckpointLimitedEvent
  | McpLogEvent
  | ScoreRecordedEvent
  | ReplayDivergedEvent;

export type RunEventType = RunEventPayload['type'];

export interface RunEventEnvelope {
  v: typeof RUN_EVENT_VERSION;
  runId: string;
  /** starts at 1, no gaps within a run */
  seq: number;
  /** milliseconds since the epoch */
  ts: number;
}

export type RunEvent = RunEventEnvelope & RunEventPayload;
export type RunEventOf<T extends RunEventType> = RunEventEnvelope &
  Extract<RunEventPayload, { type: T }>;

export const RUN_EVENT_TYPES: readonly RunEventType[] = [
  'run.started',
  'state.changed',
  'step.started',
  'step.finished',
  'memory.appended',
  'memory.truncated',
  'llm.requested',
  'llm.delta',
  'llm.responded',
  'llm.retried',
  'tool.started',
  'tool.finished',
  'tool.progress',
  'tool.output',
  'stuck.detected',
  'sandbox.changed',
  'plan.updated',
  'human.requested',
  'human.answered',
  'run.finished',
  'run.paused',
  'run.resumed',
  'run.edited',
  'breakpoints.changed',
  'check.finished',
  'llm.queued',
  'checkpoint.limited',
  'mcp.log',
  'score.recorded',
  'replay.diverged',
];

export function isEventOfType<T extends RunEventType>(
  event: RunEvent,
  type: T,
): event is RunEventOf<T> {
  return event.type === type;
}

/**
 * A cheap structural check for events read back from disk or the wire; it checks the
 * envelope and the type tag (payloads are produced by our own runtime).
 */
export function looksLikeRunEvent(value: unknown): value is RunEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.v === RUN_EVENT_VERSION &&
    typeof v.runId === 'string' &&
    typeof v.seq === 'number' &&
    Number.isInteger(v.seq) &&
    v.seq >= 1 &&
    typeof v.ts === 'number' &&
    typeof v.type === 'string' &&
    (RUN_EVENT_TYPES as readonly string[]).includes(v.type)
  );
}

/** Stamps the envelope on payloads: seq starts at 1 and never skips. */
export function createEventStamper(runId: string, now: () => number = Date.now) {
  let seq = 0;
  return {
    stamp(payload: RunEventPayload): RunEvent {
      seq += 1;
      return { v: RUN_EVENT_VERSION, runId, seq, ts: now(), ...payload };
    },
    get lastSeq(): number {
      return seq;
    },
  };
}
