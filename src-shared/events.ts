/**
 * RunEvent: the one event format (DESIGN section 2). The same stream is the live view,
 * the persisted history (one JSONL line per event), the replay source and the CLI's
 * `--jsonl` output, so everything here is plain JSON.
 */
import type { AgentState, FlowName, RunOutcome, TokenUsage } from './domain/agent';
import type { Role, ToolCall } from './domain/message';

export const RUN_EVENT_VERSION = 1 as const;

/** A memory message as it travels in events: never carries image bytes or secrets. */
export interface EventMessage {
  role: Role;
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  /** set when the runtime message carries an image (its bytes stay in the main process) */
  imageMimeType?: string;
}

export interface RunStartedEvent {
  type: 'run.started';
  agent: string;
  task: string;
  maxSteps: number;
  model: string;
  flow?: FlowName;
  sessionId: string;
}
export interface StateChangedEvent {
  type: 'state.changed';
  agent: string;
  from: AgentState;
  to: AgentState;
}
export interface StepStartedEvent {
  type: 'step.started';
  agent: string;
  step: number;
  maxSteps: number;
}
export interface StepFinishedEvent {
  type: 'step.finished';
  agent: string;
  step: number;
  durationMs: number;
}
export interface MemoryAppendedEvent {
  type: 'memory.appended';
  agent: string;
  /** position in the agent's full history; never reused, also after truncation */
  index: number;
  message: EventMessage;
}
export interface MemoryTruncatedEvent {
  type: 'memory.truncated';
  agent: string;
  /** memory indexes the model no longer receives */
  dropped: number[];
  window: number;
}
export interface LlmRequestedEvent {
  type: 'llm.requested';
  agent: string;
  step: number;
  model: string;
  messageCount: number;
  inputTokens: number;
  /**
   * the system prompt sent in front of memory, present when it differs from this
   * agent's previous request (so a 10,000-step run does not repeat it 10,000 times)
   */
  system?: string;
  /** the stuck nudge sent after memory with this request only (it is never stored) */
  nudge?: string;
}
export interface LlmDeltaEvent {
  type: 'llm.delta';
  agent: string;
  step: number;
  text: string;
}
export interface LlmRespondedEvent {
  type: 'llm.responded';
  agent: string;
  step: number;
  model: string;
  content: string | null;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  durationMs: number;
  finishReason: string;
}
export interface LlmRetriedEvent {
  type: 'llm.retried';
  agent: string;
  step: number;
  attempt: number;
  status: number | null;
  delayMs: number;
  error: string;
}
export interface ToolStartedEvent {
  type: 'tool.started';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  /** parsed arguments, or the raw string when they did not parse */
  args: unknown;
}
export interface ToolFinishedEvent {
  type: 'tool.finished';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  ok: boolean;
  output: string;
  error?: string;
  exitCode?: number;
  durationMs: number;
}
/**
 * A running tool reported progress (an MCP server's `notifications/progress`, or the
 * status of an MCP task). Throttled; a tool may send none.
 */
export interface ToolProgressEvent {
  type: 'tool.progress';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  /** how far it is, in the tool's own unit; grows with every report */
  progress: number;
  /** the end of the scale, when the tool knows it */
  total?: number;
  message?: string;
}

export interface StuckDetectedEvent {
  type: 'stuck.detected';
  agent: string;
  step: number;
  kind: 'content' | 'tool_calls';
  count: number;
  /** memory indexes of the earlier duplicates */
  duplicateOf: number[];
}
export const SANDBOX_STATUSES = ['creating', 'ready', 'busy', 'idle', 'removed', 'failed'] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];
export interface SandboxChangedEvent {
  type: 'sandbox.changed';
  status: SandboxStatus;
  containerId?: string;
  image: string;
  error?: string;
  /** progress text while an image is pulled */
  progress?: string;
}
export const PLAN_STEP_STATUSES = ['not_started', 'in_progress', 'completed', 'blocked'] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];
export interface PlanStep {
  text: string;
  status: PlanStepStatus;
  agent?: string;
  notes?: string;
}
export interface PlanUpdatedEvent {
  type: 'plan.updated';
  planId: string;
  title: string;
  steps: PlanStep[];
}
export interface HumanRequestedEvent {
  type: 'human.requested';
  toolCallId: string;
  question: string;
}
export interface HumanAnsweredEvent {
  type: 'human.answered';
  toolCallId: string;
  answer: string;
}
export interface RunFinishedEvent {
  type: 'run.finished';
  outcome: RunOutcome;
  state: AgentState;
  steps: number;
  usage: TokenUsage;
  terminateStatus?: string;
  error?: string;
}

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
  | StuckDetectedEvent
  | SandboxChangedEvent
  | PlanUpdatedEvent
  | HumanRequestedEvent
  | HumanAnsweredEvent
  | RunFinishedEvent;

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
  'stuck.detected',
  'sandbox.changed',
  'plan.updated',
  'human.requested',
  'human.answered',
  'run.finished',
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
