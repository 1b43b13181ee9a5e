/**
 * The run's own events: it started (with its lineage, batch cell and settings), its
 * state changed, its plan changed, a batch check ran, it finished.
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */
import type { AgentState, FlowName, RunOutcome, TokenUsage } from '../domain/agent';
import type { McpPromptChoice } from '../domain/mcp';
import type { RecordedAgentDefinition } from '../domain/agent-definition';

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
  /**
   * the MCP prompt the task was made from (`--prompt SERVER/NAME`, the New run form):
   * `task` holds its messages as the agent got them (docs/mcp.md, "Prompts")
   */
  prompt?: RunPromptTag;
  /**
   * the agent definition the run ran with: prompts (as templates), tool patterns, the
   * tools that end the run, profile and run settings, with its version and hash
   * (docs/agents.md). Absent in runs recorded before it existed and in flows.
   */
  agentDefinition?: RecordedAgentDefinition;
}
/** Which MCP prompt, with which arguments, gave a run its task. */
export type RunPromptTag = McpPromptChoice;
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
export interface RunFinishedEvent {
  type: 'run.finished';
  outcome: RunOutcome;
  state: AgentState;
  steps: number;
  usage: TokenUsage;
  terminateStatus?: string;
  error?: string;
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
