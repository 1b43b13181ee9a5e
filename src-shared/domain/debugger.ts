/**
 * The agent debugger's vocabulary, shared by the runtime, the contract, the CLI and the
 * UI: breakpoint conditions and their one-line text form (`tool:bash`, `stuck`,
 * `step:3`...), where a run pauses and why, how it resumes, and the edits a user makes
 * while it is paused. Plain data, so it travels in RunEvents and IPC as is.
 */
import type { Role, ToolCall } from './message';

export type BreakpointCondition =
  /** before a call of this tool runs; `argsPattern` narrows it to matching arguments */
  | { kind: 'tool'; tool: string; argsPattern?: string }
  /** after stuck detection fired */
  | { kind: 'stuck' }
  /** after a tool call failed or a command exited non-zero */
  | { kind: 'tool_error' }
  /** when a model call fails (before the run ends) or had to be retried */
  | { kind: 'model_error' }
  /** before the model call of run step N */
  | { kind: 'step'; step: number }
  /** once the run's tokens (prompt + completion) pass the budget */
  | { kind: 'tokens'; limit: number }
  /** once the run's estimated cost in US dollars passes the budget */
  | { kind: 'cost'; limitUsd: number };

export type BreakpointKind = BreakpointCondition['kind'];

export interface Breakpoint {
  /** `bp-N`, unique within a run */
  id: string;
  condition: BreakpointCondition;
  /** the condition's text form, as typed and as shown */
  spec: string;
  /** set for this run (UI, CLI), or saved for the agent in config.toml */
  origin: 'run' | 'config';
  /** fires only for this agent (a config breakpoint of `[agent.NAME]` in a flow run) */
  agent?: string;
}

/** Approval mode: calls of `tool` pause for approve / edit / skip (only `agent`'s, if set). */
export interface ApprovalRule {
  tool: string;
  agent?: string;
}

/** Where a paused run stands. */
export type PausePoint =
  /** before the model call of a step (between steps): the context can be edited */
  | 'before_model'
  /** the model proposed tool calls, none has run yet: they can be approved or edited */
  | 'before_tools'
  /** the model call failed; resuming tries it again (or uses a typed reply) */
  | 'model_error'
  /** before a call of PlanningFlow's planner (pause only, no edits) */
  | 'planner'
  /** before a model call an MCP server asked for (sampling; pause only, no edits) */
  | 'sampling';

export type PauseReason =
  | { kind: 'user' }
  | { kind: 'step'; scope: StepScope }
  | { kind: 'breakpoint'; breakpointId: string; condition: string; detail: string }
  | { kind: 'approval'; tools: string[] };

/** One think/act cycle, or only the model call (its proposed tool calls are shown). */
export type StepScope = 'cycle' | 'model';
export type ResumeMode = 'continue' | StepScope;
/** Who made a debugger request: the UI (desktop or browser) or the CLI's terminal. */
export type DebugActor = 'ui' | 'terminal';

export type DebugState = 'running' | 'pausing' | 'paused';

export interface DebugStatus {
  state: DebugState;
}

/** The edits a user can submit while a run is paused (`debug:edit`). */
export type DebugEdit =
  | { kind: 'approve_call'; toolCallId: string }
  | { kind: 'edit_call'; toolCallId: string; arguments: string }
  | { kind: 'skip_call'; toolCallId: string; observation: string }
  | { kind: 'add_call'; name: string; arguments: string }
  | { kind: 'edit_message'; index: number; content: string }
  | { kind: 'add_message'; role: EditableRole; content: string }
  | { kind: 'change_model'; profile?: string; temperature?: number }
  | { kind: 'provide_reply'; content: string; toolCalls?: { name: string; arguments: string }[] };

export type DebugEditKind = DebugEdit['kind'];
export type EditableRole = Extract<Role, 'user' | 'assistant'>;

/** Which edits apply at which pause point. */
export const EDITS_AT: Record<PausePoint, readonly DebugEditKind[]> = {
  before_model: ['edit_message', 'add_message', 'change_model', 'provide_reply'],
  model_error: ['edit_message', 'add_message', 'change_model', 'provide_reply'],
  before_tools: ['approve_call', 'edit_call', 'skip_call', 'add_call'],
  planner: [],
  sampling: [],
};

export interface ModelChoice {
  model: string;
  profile: string;
  temperature: number;
}

/** What an edit did, as recorded in `run.edited`: enough to show before and after. */
export type EditRecord =
  | { kind: 'approve_call'; toolCallId: string; name: string }
  | { kind: 'edit_call'; toolCallId: string; name: string; before: string; after: string }
  | { kind: 'skip_call'; toolCallId: string; name: string; observation: string }
  | { kind: 'add_call'; toolCallId: string; name: string; arguments: string }
  | { kind: 'edit_message'; index: number; role: Role; before: string | null; after: string }
  | { kind: 'add_message'; index: number; role: EditableRole; content: string }
  | { kind: 'change_model'; before: ModelChoice; after: ModelChoice }
  | { kind: 'provide_reply'; content: string; toolCalls: ToolCall[] };

export interface EditResult {
  applied: true;
  /** the id given to an added call */
  toolCallId?: string;
  /** the memory index of an added message */
  index?: number;
  /**
   * the edit decided the last call a pause for approvals was waiting for: the run went on
   * (no resume needed)
   */
  resumed?: true;
}

export const BREAKPOINT_SYNTAX =
  'tool:NAME, tool:NAME:PATTERN, stuck, tool_error, model_error, step:N, tokens:N, cost:USD';

export type ParsedBreakpoint =
  { ok: true; condition: BreakpointCondition } | { ok: false; error: string };

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Parses the text form (`tool:bash`, `tool:bash:/rm\s/`, `step:3`, `tokens:50k`, `cost:0.5`). */
export function parseBreakpoint(text: string): ParsedBreakpoint {
  const spec = text.trim();
  const fail = (why: string): ParsedBreakpoint => ({
    ok: false,
    error: `Breakpoint "${spec}": ${why} (one of ${BREAKPOINT_SYNTAX})`,
  });
  const colon = spec.indexOf(':');
  const kind = (colon < 0 ? spec : spec.slice(0, colon)).toLowerCase();
  const rest = colon < 0 ? '' : spec.slice(colon + 1);
  switch (kind) {
    case 'stuck':
    case 'tool_error':
    case 'model_error':
      if (rest) return fail(`${kind} takes no value`);
      return { ok: true, condition: { kind } };
    case 'tool': {
      const second = rest.indexOf(':');
      const tool = second < 0 ? rest : rest.slice(0, second);
      const pattern = second < 0 ? '' : rest.slice(second + 1);
      if (!TOOL_NAME.test(tool)) return fail('name a tool, e.g. tool:bash');
      if (second >= 0 && !pattern) return fail('the argument pattern after the tool is empty');
      if (pattern && patternError(pattern)) return fail(patternError(pattern)!);
      return {
        ok: true,
        condition: { kind: 'tool', tool, ...(pattern ? { argsPattern: pattern } : {}) },
      };
    }
    case 'step': {
      const step = Number(rest);
      if (!Number.isInteger(step) || step < 1) return fail('the step must be a positive integer');
      return { ok: true, condition: { kind: 'step', step } };
    }
    case 'tokens': {
      const limit = parseAmount(rest);
      if (limit === null || !Number.isInteger(limit) || limit < 1)
        return fail('the token budget must be a positive whole number (e.g. 50000 or 50k)');
      return { ok: true, condition: { kind: 'tokens', limit } };
    }
    case 'cost': {
      const limitUsd = Number(rest.replace(/^\$/, ''));
      if (!rest || !Number.isFinite(limitUsd) || limitUsd <= 0)
        return fail('the cost budget must be a positive amount in US dollars (e.g. cost:0.50)');
      return { ok: true, condition: { kind: 'cost', limitUsd } };
    }
    default:
      return fail(spec ? `unknown kind "${kind}"` : 'empty');
  }
}

/** The canonical text form of a condition (parseBreakpoint's inverse). */
export function formatBreakpoint(condition: BreakpointCondition): string {
  switch (condition.kind) {
    case 'tool':
      return `tool:${condition.tool}${condition.argsPattern ? `:${condition.argsPattern}` : ''}`;
    case 'step':
      return `step:${condition.step}`;
    case 'tokens':
      return `tokens:${condition.limit}`;
    case 'cost':
      return `cost:${condition.limitUsd}`;
    default:
      return condition.kind;
  }
}

/** `/re/flags` is a regular expression; anything else a plain substring. */
export function compileArgsPattern(pattern: string): (text: string) => boolean {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (regex) {
    const re = new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, ''));
    return (text) => re.test(text);
  }
  return (text) => text.includes(pattern);
}

function patternError(pattern: string): string | null {
  try {
    compileArgsPattern(pattern);
    return null;
  } catch (error) {
    return `the argument pattern is not a valid regular expression: ${(error as Error).message}`;
  }
}

function parseAmount(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.replace(/[_,]/g, ''));
  if (!match) return null;
  const scale = { '': 1, k: 1e3, m: 1e6 }[match[2]!.toLowerCase() as '' | 'k' | 'm'];
  return Math.round(Number(match[1]) * scale);
}

/** A pause reason as one line for people (CLI, UI, docs). */
export function describePauseReason(reason: PauseReason): string {
  switch (reason.kind) {
    case 'user':
      return 'paused by the user';
    case 'step':
      return reason.scope === 'model' ? 'stepped over the model call' : 'stepped one cycle';
    case 'breakpoint':
      return `breakpoint ${reason.breakpointId} (${reason.condition}): ${reason.detail}`;
    case 'approval':
      return `approval needed before running ${reason.tools.join(', ')}`;
  }
}

/** An edit as one line for people (CLI, UI, replay). */
export function describeEdit(edit: EditRecord): string {
  const clip = (text: string | null, max = 120) => {
    const flat = (text ?? '').replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max)}…` : flat;
  };
  switch (edit.kind) {
    case 'approve_call':
      return `approved ${edit.name} (${edit.toolCallId})`;
    case 'edit_call':
      return `edited the arguments of ${edit.name} (${edit.toolCallId}): ${clip(edit.before)} → ${clip(edit.after)}`;
    case 'skip_call':
      return `skipped ${edit.name} (${edit.toolCallId}), telling the model: ${clip(edit.observation)}`;
    case 'add_call':
      return `added a call to ${edit.name} (${edit.toolCallId}): ${clip(edit.arguments)}`;
    case 'edit_message':
      return `edited message #${edit.index} (${edit.role}): ${clip(edit.before)} → ${clip(edit.after)}`;
    case 'add_message':
      return `added message #${edit.index} (${edit.role}): ${clip(edit.content)}`;
    case 'change_model': {
      const show = (m: ModelChoice) =>
        `${m.model} [llm${m.profile === 'default' ? '' : `.${m.profile}`}] temperature ${m.temperature}`;
      return `changed the model: ${show(edit.before)} → ${show(edit.after)}`;
    }
    case 'provide_reply': {
      const calls = edit.toolCalls.map((c) => c.function.name).join(', ');
      return `typed the reply in place of the model: ${clip(edit.content)}${calls ? ` (calls: ${calls})` : ''}`;
    }
  }
}
