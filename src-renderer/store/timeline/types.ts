/**
 * The timeline of one run, as the UI shows it: a flat list of items in display order
 * (step headers, memory messages, tool-call cards, streamed text, small markers), built
 * incrementally from RunEvents by `applyTimelineEvents`. Each item's `id` is the seq of
 * the event that created it, so ids are unique per run, ascending in list order and
 * stable across reloads and replays.
 */
import type { RecordedAgentDefinition } from '@shared/domain/agent-definition';
import type { UserCommandRecord } from '@shared/domain/terminal';
import type { AgentState, FlowName, RunOutcome, TokenUsage } from '@shared/domain/agent';
import type { Role, ToolCall } from '@shared/domain/message';
import type { PendingCalls } from './pending-calls';
import type { StepWaits, WaitState } from './step-waits';
import type { LiveOutput } from '../../lib/live-output';
export type { LiveOutput } from '../../lib/live-output';
import type {
  EventImage,
  EventMessage,
  McpLogLevel,
  RunPromptTag,
  PlanStep,
  PlanStepStatus,
  RequestParams,
  RequestTool,
  RunPausedEvent,
  SandboxFailureReason,
  SandboxStatus,
} from '@shared/events';
import type { RunVerdict } from '@shared/run-outcome';
import type { ScoreJudgeCall } from '@shared/events';
import type { ScorerKind } from '@shared/experiments/scorer-types';
import type { HumanForm } from '@shared/elicitation';
import type {
  ApprovalRule,
  Breakpoint,
  DebugActor,
  EditRecord,
  PausePoint,
} from '@shared/domain/debugger';

interface ItemBase {
  /** seq of the event that created the item */
  id: number;
  /** the agent it belongs to ('' for run-level items before any agent spoke) */
  agent: string;
  /** the agent's step it happened in; 0 before the first step */
  step: number;
  /** id of the step header it is grouped under; 0 for items before any step */
  stepId: number;
  ts: number;
  /** a flow's plan step it belongs to: the id of that plan step's header row */
  planStepId?: number;
}

export interface RunStartItem extends ItemBase {
  kind: 'run';
  task: string;
  model: string;
  maxSteps: number;
  flow?: FlowName;
  /** the MCP prompt that gave the run its task (`run.started.prompt`) */
  prompt?: RunPromptTag;
  /** the agent definition the run ran with (`run.started.agentDefinition`, docs/agents.md) */
  agentDefinition?: RecordedAgentDefinition;
}

export interface StepItem extends ItemBase {
  kind: 'step';
  maxSteps: number;
  isFinished: boolean;
  durationMs?: number;
  /** the time of its model calls (`llm.responded.durationMs`, waits included) */
  modelMs?: number;
  /** what it waited for, and where those waits lie (step-waits.ts); absent: no wait */
  waits?: StepWaits;
  /** the model request made in this step (anchor of "context at this step") */
  request?: {
    seq: number;
    model: string;
    messageCount: number;
    inputTokens: number;
    /** the system prompt this request carried in front of memory */
    system?: string;
    /** the stuck nudge it carried after memory */
    nudge?: string;
    /** sampling parameters and tool_choice sent (absent in older runs) */
    params?: RequestParams;
    toolChoice?: 'auto' | 'required' | 'none';
    /** the tool list sent, by reference into `TimelineModel.requestTools` */
    toolsHash?: string;
    /** the messages, for requests not built from memory (the planner's) */
    messages?: EventMessage[];
  };
  /** who counted the step's `usage`: the provider or the runtime's o200k tokenizer */
  usageSource?: 'provider' | 'o200k';
  usage?: TokenUsage;
  hasError: boolean;
  duplicateCount: number;
  isStuck: boolean;
  /** id of the stuck marker whose nudge this step's request carried */
  nudgedBy?: number;
}

export interface DuplicateInfo {
  /** what repeats: the content, the tool-call signature, or both */
  kind: 'content' | 'tool_calls' | 'both';
  /**
   * memory indexes of earlier occurrences, oldest first: the first one and the latest
   * few (all of them while there are at most five)
   */
  of: number[];
  /** their item ids, in the same order */
  ofItems: number[];
  /** 2 for the first repeat, 3 for the second... */
  occurrence: number;
}

export interface ResponseInfo {
  model: string;
  usage: TokenUsage;
  /** from the request to the answer, waits included */
  durationMs: number;
  /** of durationMs, the waits: queued for a model slot, backoff between attempts */
  waitedMs?: number;
  finishReason: string;
}

export interface MessageItem extends ItemBase {
  kind: 'message';
  memoryIndex: number;
  role: Role;
  content: string | null;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  name?: string;
  imageMimeType?: string;
  /** the image as the history kept it (absent in older histories: only `imageMimeType`) */
  image?: EventImage;
  duplicate?: DuplicateInfo;
  /** how many later assistant responses repeat this one (counted on the first occurrence) */
  repeatedLater: number;
  /** seq of the `memory.truncated` after which the model no longer saw it */
  droppedAtSeq?: number;
  response?: ResponseInfo;
  /** the text arrived as a stream before the message was stored */
  wasStreamed: boolean;
  /** the user's edits of its content while the run was paused, oldest first */
  edits?: ContentEdit[];
  /**
   * the model's reply as it answered (llm.responded), shown before the tool calls it made
   * because the agent stores something else in memory (a flow's planner stores the plan)
   */
  isReplyOnly?: boolean;
  /** a user prompt that repeats an earlier one word for word: that one's item id */
  repeatOf?: number;
}

/** An edit of a stored message's content: from this seq on the model saw the new text. */
export interface ContentEdit {
  seq: number;
  before: string | null;
}

export interface StreamItem extends ItemBase {
  kind: 'stream';
  text: string;
  /** the reply is complete but held by the debugger: it is stored when the run resumes */
  isHeld?: boolean;
}

export interface ToolItem extends ItemBase {
  kind: 'tool';
  toolCallId: string;
  name: string;
  args: unknown;
  /** `skipped`: the user skipped it in the debugger (not run, not an error) */
  status: 'running' | 'ok' | 'error' | 'skipped';
  output?: string;
  error?: string;
  exitCode?: number;
  durationMs?: number;
  /** what the command printed while it ran (tool.output), in order, a piece per stream run */
  live?: LiveOutput;
  /** the latest progress the tool reported while it ran (tool.progress) */
  progress?: { progress: number; total?: number; message?: string };
  /** the tool message stored in memory for this call (what the model observed) */
  memoryIndex?: number;
  observation?: string;
  droppedAtSeq?: number;
  /** the call failed because the sandbox could not start (the banner says why) */
  isSandboxFailure?: boolean;
  /**
   * the session's sandbox being queued for, created or made ready while this call waited
   * for it: shown in the card before the result, not as a row after it
   */
  sandbox?: { status: SandboxStatus; text: string };
  /** the same error came earlier in the run: the id of the first call that had it */
  repeatOf?: number;
  /** on the first call with an error: the ids of later calls with the same error */
  repeats?: number[];
  /** edits of the observation (the tool message) while the run was paused */
  edits?: ContentEdit[];
  /** an MCP tool's `structuredContent` (`tool.finished.structured`) */
  structured?: unknown;
  /** model calls an MCP server asked for (sampling) while this call ran, in order */
  sampling?: SamplingCall[];
}

/** A model call made for an MCP server's `sampling/createMessage` (`llm.requested.sampledBy`). */
export interface SamplingCall {
  /** seq of its llm.requested */
  seq: number;
  server: string;
  model: string;
  messages?: EventMessage[];
  /** the model's answer, once it came (llm.responded) */
  reply?: { content: string | null; usage: TokenUsage; durationMs: number; finishReason: string };
}

/** One `mcp.log` event: a log message an MCP server sent. */
export interface McpLogLine {
  seq: number;
  ts: number;
  server: string;
  level: McpLogLevel;
  logger?: string;
  data: string;
  /** messages the server's rate limit left out before this one */
  omitted?: number;
}

export type MarkerKind = 'state' | 'retry' | 'truncated' | 'sandbox' | 'plan' | 'replay';

export interface MarkerItem extends ItemBase {
  kind: 'marker';
  marker: MarkerKind;
  text: string;
  tone: 'info' | 'warn' | 'error';
  /** for `truncated`: the memory indexes dropped, and their item ids */
  dropped?: number[];
  droppedItems?: number[];
  /** for a sandbox failure: the tool calls it failed, in order (one row for all of them) */
  occurrences?: number[];
  /** a flow's plan step starting: the header its executor steps are nested under */
  planStep?: { index: number; text: string; agent?: string; status: PlanStepStatus };
}

export interface StuckItem extends ItemBase {
  kind: 'stuck';
  stuckKind: 'content' | 'tool_calls';
  count: number;
  duplicateOf: number[];
  duplicateItems: number[];
  /**
   * where the nudge went: the agent's next step, whose model request carries it (after
   * the memory window; the runtime never stores it in memory)
   */
  nudge?: { step: number; stepId: number };
}

export interface HumanItem extends ItemBase {
  kind: 'human';
  toolCallId: string;
  question: string;
  /** an MCP server's elicitation: the form to fill (the answer is an ElicitAnswer's JSON) */
  form?: HumanForm;
  answer?: string;
}

export interface FinishedItem extends ItemBase {
  kind: 'finished';
  outcome: RunOutcome;
  state: AgentState;
  steps: number;
  usage: TokenUsage;
  error?: string;
  /** the sandbox failure's message the error starts with, while its banner shows */
  sandboxCause?: string;
  terminateStatus?: string;
  /** the run's one badge (docs/run-outcome.md) */
  verdict: RunVerdict;
}

/**
 * An experiment's scorer judged the run (`score.recorded`, docs/experiments.md): one row
 * per scorer, after the agent's last step and before the run's end, not part of a step.
 */
export interface ScoreItem extends ItemBase {
  kind: 'score';
  scorer: string;
  scorerKind: ScorerKind;
  /** in [0, 1] */
  score: number;
  passed: boolean;
  explanation: string;
  durationMs: number;
  /** the scorer could not run: its score is 0 */
  error?: string;
  /** an LLM judge's own model call, shown in the inspector like any model call */
  judge?: ScoreJudgeCall;
  /** the first score of the run: its row heads the "Scores" section */
  isFirstScore: boolean;
}

/** The debugger in the timeline: a pause, a resume, an edit, a change of breakpoints. */
export interface DebugItem extends ItemBase {
  kind: 'debug';
  action: 'paused' | 'resumed' | 'edited' | 'breakpoints';
  /** one line for people */
  text: string;
  by?: DebugActor | 'config';
  point?: PausePoint;
  edit?: EditRecord;
}

/**
 * A command the user typed into the run's terminal (issue 32): a user action, not an
 * agent step; placed among the rows by time (user-action-items.ts), never an event.
 */
export interface UserActionItem extends ItemBase {
  kind: 'user';
  command: UserCommandRecord;
}

export type TimelineItem =
  | UserActionItem
  | DebugItem
  | RunStartItem
  | StepItem
  | MessageItem
  | StreamItem
  | ToolItem
  | MarkerItem
  | StuckItem
  | HumanItem
  | ScoreItem
  | FinishedItem;

export type TimelineItemKind = TimelineItem['kind'];

export interface PlanState {
  planId: string;
  title: string;
  steps: PlanStep[];
  updatedSeq: number;
  /** per plan step: the id of the timeline row where it started (its header) */
  stepItems: Record<number, number>;
}

export interface SandboxState {
  status: SandboxStatus;
  image: string;
  containerId?: string;
  error?: string;
  reason?: SandboxFailureReason;
  progress?: string;
}

/** The sandbox could not start: one banner and one timeline row, however often it failed. */
export interface SandboxFailure {
  error: string;
  reason?: SandboxFailureReason;
  image: string;
  /** id of the timeline row of the failure */
  markerId: number;
  /** tool calls that failed because of it */
  toolIds: number[];
  /** the sandbox started after all (a later `ready`) */
  isResolved: boolean;
}

/**
 * Lookup tables that only grow. They are shared between successive models of the same
 * run (copying them per batch would make every batch cost O(history)); every entry
 * describes an item position that is valid in every later model, and nothing reads
 * an older model's tables after a newer one exists.
 */
export interface TimelineIndex {
  /** `${agent}\u0000${memoryIndex}` -> item position */
  memory: Map<string, number>;
  /** toolCallId -> item position */
  tools: Map<string, number>;
  /** `${agent}\u0000${step}` -> item position of the step header */
  steps: Map<string, number>;
  /** duplicate keys -> memory indexes (with positions) of assistant messages that had it */
  contentSeen: Map<string, { memoryIndex: number; position: number }[]>;
  signatureSeen: Map<string, { memoryIndex: number; position: number }[]>;
  /** toolCallId -> item position of the human question */
  human: Map<string, number>;
  toolNames: Set<string>;
  /** normalised tool error text -> item position of the first call that had it */
  errors: Map<string, number>;
  /** `${agent}\u0000${content}` of user prompts -> id of the first item with it */
  prompts: Map<string, number>;
  /**
   * the run's MCP server log lines (`mcp.log`), oldest first; only grows. A model shows
   * the first `mcpLogCount` of them (appending never copies the list: thousands of lines)
   */
  mcpLogs: McpLogLine[];
}

export interface TimelineModel {
  items: TimelineItem[];
  index: TimelineIndex;
  /** per agent: current step and its header position */
  current: Record<string, { step: number; position: number }>;
  /** the last agent that emitted an agent event (run-level events are filed under it) */
  lastAgent: string;
  /** per agent: position of the live stream item, while a response streams */
  streams: Record<string, number>;
  /** per agent: the last `llm.responded`, waiting for its assistant memory message */
  pendingResponse: Record<
    string,
    {
      step: number;
      info: ResponseInfo;
      /** seq of the llm.responded, and what it said */
      seq: number;
      reply: { content: string | null; toolCalls: ToolCall[] };
    }
  >;
  /** a flow's plan step in progress: its index and the position of its header row */
  planStep?: { index: number; position: number };
  /** the text of the last plan summary row (an update that changes nothing adds none) */
  lastPlanText?: string;
  /** per agent: the model call waiting for its answer (pending-calls.ts) */
  pendingCalls: PendingCalls;
  /** what the steps' waits need to know between events (step-waits.ts) */
  waitState: WaitState;
  /** per agent: a stuck marker whose nudge goes into the agent's next step */
  pendingNudge: Record<string, number>;
  /** per agent: the system prompt its requests carry (sent only when it changes) */
  systemPrompts: Record<string, string>;
  /** the tool lists model requests offered, by hash (`llm.requested.toolsHash`) */
  requestTools: Record<string, RequestTool[]>;
  plan?: PlanState;
  sandbox?: SandboxState;
  /** the agent the run started with (a flow's planner); its state is the run's state */
  runAgent: string;
  /** tool calls that failed so far (errors and non-zero exits) */
  toolErrors: number;
  /** position of the run agent's latest state marker (its terminal one names the outcome) */
  runStateMarker?: number;
  /** position of the latest sandbox row (a repeated status updates it) */
  sandboxMarker?: number;
  /** position of the tool call running now (a sandbox made for it is shown in its card) */
  runningTool?: number;
  sandboxFailure?: SandboxFailure;
  /** tool call ids of questions still waiting for an answer */
  openQuestions: string[];
  /** how many of `index.mcpLogs` this model holds */
  mcpLogCount: number;
  /** per agent: the tool item and sampling call whose model answer is awaited */
  pendingSampling: Record<string, { position: number; call: number }>;
  /** the debugger's state: where the run is paused, its breakpoints (absent: never used) */
  debug?: RunDebugView;
  /** number of events applied (for tests and the bench) */
  eventCount: number;
  lastSeq: number;
  /** unique among all models made in this page (model.ts `nextVersion`) */
  version: number;
  /**
   * What changed in `items` since the model this one was made from (the one whose
   * version is `from`): items from `appendedFrom` on are new, the `replaced` positions
   * before it hold another object now, every other item is the same object. Views that
   * derive something per item (the row window) update only those instead of the run.
   */
  change?: ItemsChange;
}

export interface ItemsChange {
  from: number;
  appendedFrom: number;
  replaced: number[];
}

/** What the debugger bar shows, derived from the run's events (so a reload finds it). */
export interface RunDebugView {
  /** the pause the run is in, or null while it runs */
  paused: (RunPausedEvent & { seq: number; ts: number }) | null;
  /** the proposed calls as edited so far in this pause */
  calls: ToolCall[];
  /** per call id: what the user decided in this pause */
  decisions: Record<string, 'approved' | 'edited' | 'skipped' | 'added'>;
  /** a reply typed in place of the model during this pause */
  hasTypedReply: boolean;
  breakpoints: Breakpoint[];
  approvals: ApprovalRule[];
}
