/**
 * RunEvent: the one event format (DESIGN section 2). The same stream is the live view,
 * the persisted history (one JSONL line per event), the replay source and the CLI's
 * `--jsonl` output, so everything here is plain JSON.
 */
import type { AgentState, FlowName, RunOutcome, TokenUsage } from './domain/agent';
import type { Role, ToolCall } from './domain/message';
import type {
  ApprovalRule,
  Breakpoint,
  DebugActor,
  EditRecord,
  PausePoint,
  PauseReason,
  ResumeMode,
} from './domain/debugger';

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
  /**
   * the image as the history keeps it: a file beside the run's log, named by `ref`
   * (issue 17). Absent in runs recorded before images were kept; then only
   * `imageMimeType` says there was one.
   */
  image?: EventImage;
}

/** A memory message's image in the history (docs/events.md, "Images"). */
export interface EventImage {
  /** the type the tool declared (`image/png`, ...) */
  mimeType: string;
  /** the decoded size */
  bytes: number;
  /**
   * the stored file, content-addressed: `<sha256 hex>.<png|jpg|gif|webp>` (see
   * `image-ref.ts`); absent when the bytes were not kept (`notKept` says why)
   */
  ref?: string;
  width?: number;
  height?: number;
  /** why the bytes were not kept: over the size cap, a type not allowed, the disk refused */
  notKept?: string;
}

export interface RunStartedEvent {
  type: 'run.started';
  agent: string;
  task: string;
  maxSteps: number;
  model: string;
  flow?: FlowName;
  sessionId: string;
  /** the host folder the sandbox sees at its work_dir, when the user chose one */
  workspace?: { path: string; mode: 'mount' | 'copy'; copyPath?: string };
  /**
   * the run's resolved settings, flat (`llm.model`, `agent.max_steps`, `sandbox.image`,
   * ...; a flow prefixes each participant's keys with its name): what "compare runs"
   * lists as the settings that differ. Never holds an API key. Absent in runs recorded
   * before it existed.
   */
  settings?: RunSettings;
  /** a fork: the run and step whose context and sandbox files it started from */
  forkOf?: { runId: string; step: number };
  /** a resumed run: the interrupted run it continues, from its last step */
  resumeOf?: { runId: string; step: number };
  /**
   * a continuation: the finished run (and its last step) it goes on from, with the user's
   * follow-up message, in the same session and workspace (docs/time-travel.md)
   */
  continueOf?: { runId: string; step: number };
  /** "Run again": the run this one repeats from step 0 */
  rerunOf?: string;
  /**
   * with `rerunOf`: `recorded`, the model profile and agent settings that run recorded in
   * its `settings` (its API key from today's config for that profile or base URL);
   * `current`, config.toml as it is now. Absent in re-runs recorded before it existed.
   */
  rerunSettings?: RerunSettings;
  /** the batch this run belongs to (`workbench batch`, the Batch view): absent otherwise */
  batch?: RunBatchTag;
}
/** Which cell of which batch a run fills: task (by index), profile and repeat. */
export interface RunBatchTag {
  batchId: string;
  /** the item's key in the batch plan (`t0-p1-r0`), stable across resumes */
  item: string;
  taskIndex: number;
  /** the `[llm.NAME]` profile the run used; absent: the agent's own */
  profile?: string;
  repeat: number;
}
/** Which settings a "Run again" uses: the ones the run recorded, or today's config. */
export type RerunSettings = 'recorded' | 'current';
/** A run's resolved settings by flat key; values are plain scalars. */
export type RunSettings = Record<string, string | number | boolean>;
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
  /**
   * an assistant response that repeats an earlier response of the same agent in this run
   * (by content, by tool calls, or both: src-shared/duplicate-keys.ts); set by the run
   */
  duplicate?: 'content' | 'tool_calls' | 'both';
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
  /**
   * attempts this call may take, retries included (the profile's max_retries + 1): the
   * pending-call row's "attempt n of max". Absent in older runs and for clients that
   * do not retry.
   */
  maxAttempts?: number;
  /**
   * the sampling parameters sent, by their wire names (absent in older runs; a reasoning
   * model gets `max_completion_tokens` and no temperature)
   */
  params?: RequestParams;
  /** the tool_choice sent; present when the request offered tools */
  toolChoice?: 'auto' | 'required' | 'none';
  /**
   * a reference to the tool list sent (names, descriptions, JSON schemas): its hash.
   * The list itself is in `tools` of the first request of this agent that sent it, so
   * a 10,000-step run does not repeat the schemas in every step (`requestTools`).
   */
  toolsHash?: string;
  /** the tool list, present when `toolsHash` differs from this agent's previous request */
  tools?: RequestTool[];
  /**
   * the messages sent, for requests not built from the agent's memory (the planner, a
   * page extraction). Absent: the request was the system prompt (`system`), this agent's
   * memory messages as `memory.appended`/`memory.truncated` left them, and `nudge`.
   */
  messages?: EventMessage[];
}
/** The sampling parameters of a model request, named as on the wire. */
export interface RequestParams {
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
}
/** A tool as the model was offered it (an OpenAI function declaration). */
export interface RequestTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
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
  /**
   * who counted `usage`: the provider (its `usage` figures) or, when it reported none,
   * the runtime with the o200k tokenizer. Absent in older runs.
   */
  usageSource?: 'provider' | 'o200k';
  /**
   * of `durationMs`, the time the call waited for its profile before it was sent
   * (`llm.queued`: max_concurrency, a 429 rest); absent when it did not wait and in older
   * runs. `durationMs` also holds the failed attempts and the backoff of each
   * `llm.retried` (`delayMs`) before this answer.
   */
  queuedMs?: number;
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
  /**
   * the user skipped the call in the debugger: it never ran and the model got the
   * user's observation (`ok` is false for the model's sake); not a tool error
   */
  skipped?: boolean;
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
/**
 * What a running command printed (the sandbox's bash and python_execute), batched like
 * `llm.delta`: at most one event per stream every ~100 ms or 16 KiB. Each stream of a
 * call streams at most the capture cap (64 KiB, as `tool.finished.output` keeps);
 * after that, events carry only `omittedBytes` (at most one a second), and the full
 * head-and-tail output comes with `tool.finished`.
 */
export interface ToolOutputEvent {
  type: 'tool.output';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  stream: 'stdout' | 'stderr';
  text: string;
  /** bytes of this stream not streamed so far because the cap was reached */
  omittedBytes?: number;
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
/** `queued`: waiting for a free sandbox ([sandbox] max_containers); `progress` says where */
export const SANDBOX_STATUSES = [
  'creating',
  'ready',
  'busy',
  'idle',
  'removed',
  'failed',
  'queued',
] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];
export interface SandboxChangedEvent {
  type: 'sandbox.changed';
  status: SandboxStatus;
  containerId?: string;
  image: string;
  error?: string;
  /**
   * for `failed`: what kind of failure, so a UI can offer the fix (start Docker, build or
   * choose an image); absent for failures of unknown kind
   */
  reason?: SandboxFailureReason;
  /** progress text while an image is pulled, or the place in the queue while `queued` */
  progress?: string;
  /**
   * for `ready`, when `[sandbox] engines` lists more than one: the engine the sandbox was
   * placed on (unix:///..., tcp://host:port (TLS), ssh://...)
   */
  engine?: string;
}
export const SANDBOX_FAILURE_REASONS = [
  'engine_unavailable',
  'engine_timeout',
  'engine_disconnected',
  'image_unavailable',
  'container_gone',
  'sandbox_disabled',
  'workspace_full',
  'internal',
] as const;
export type SandboxFailureReason = (typeof SANDBOX_FAILURE_REASONS)[number];
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

/** The run stopped at a safe point (debugger): why, and what waits to run. */
export interface RunPausedEvent {
  type: 'run.paused';
  agent: string;
  step: number;
  point: PausePoint;
  reasons: PauseReason[];
  /** at `before_tools`: the calls the model proposed, none run yet */
  calls?: ToolCall[];
  /** at `before_tools`: ids of calls that need approval (approval mode) */
  awaitingApproval?: string[];
  /** at `model_error`: what failed */
  error?: string;
}
export interface RunResumedEvent {
  type: 'run.resumed';
  agent: string;
  step: number;
  mode: ResumeMode;
  by: DebugActor;
  pausedMs: number;
}
/** A change the user made while the run was paused: who, what, before and after. */
export interface RunEditedEvent {
  type: 'run.edited';
  agent: string;
  step: number;
  by: DebugActor;
  edit: EditRecord;
}
/** The run's breakpoints and approval list, whenever they change (and at the start). */
export interface BreakpointsChangedEvent {
  type: 'breakpoints.changed';
  breakpoints: Breakpoint[];
  approvals: ApprovalRule[];
  by: DebugActor | 'config';
}

/**
 * A batch's check command ran in the run's sandbox after the agent finished (exit 0 =
 * pass). Comes right before `run.finished`; `exitCode` null when the command was killed
 * (timeout) or never ran (`error` says why).
 */
export interface CheckFinishedEvent {
  type: 'check.finished';
  command: string;
  ok: boolean;
  exitCode: number | null;
  /** the end of stdout and stderr, capped */
  output: string;
  durationMs: number;
  error?: string;
}

/**
 * A model call waits for its profile before it is sent: `[llm.NAME] max_concurrency`
 * calls of the profile are in flight (`ahead` wait before it), or the profile rests
 * after a 429 (`delayMs`). The call goes on with `llm.responded` (or a failure).
 */
export interface LlmQueuedEvent {
  type: 'llm.queued';
  agent: string;
  step: number;
  model: string;
  reason: 'max_concurrency' | 'rate_limited';
  ahead?: number;
  capacity?: number;
  delayMs?: number;
}

/** Which limit a run's sandbox snapshots hit (docs/time-travel.md, "What snapshots may take"). */
export const CHECKPOINT_LIMIT_REASONS = [
  'step_limit',
  'run_limit',
  'budget',
  'disk_full',
  'too_deep',
] as const;
export type CheckpointLimitReason = (typeof CHECKPOINT_LIMIT_REASONS)[number];

/**
 * The run's sandbox snapshot at a step boundary hit a limit. `files_skipped`: the step's
 * snapshot was taken without some files (a fork from it, or from a later step before they
 * are taken again, does not have them). `stopped`: this step has no snapshot and the run
 * takes no more; the steps before it keep theirs.
 */
export interface CheckpointLimitedEvent {
  type: 'checkpoint.limited';
  agent: string;
  step: number;
  action: 'files_skipped' | 'stopped';
  reason: CheckpointLimitReason;
  /** `files_skipped`: the left-out files' size; `stopped`: what the snapshot needed at least */
  bytes: number;
  /** the limit that applied, in bytes (`disk_full`: what the disk had free) */
  limit?: number;
  /** `files_skipped`: the paths left out (the first 20) and how many in all */
  paths?: string[];
  count?: number;
  /** the same in one sentence */
  message: string;
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
  | CheckpointLimitedEvent;

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
