/**
 * A run's breakpoints and approval rules, and the facts they are judged on. The book
 * watches the run's own event stream (step numbers, token usage, tool failures, stuck
 * hits, model retries), so the loop needs no extra calls: a condition met by an event
 * becomes a pending hit that fires at the next safe point; conditions on the point
 * itself (a tool about to run, a step about to call the model, a budget passed) are
 * checked there. Judging ten breakpoints is a handful of comparisons per safe point.
 */
import type {
  ApprovalRule,
  Breakpoint,
  BreakpointCondition,
  PauseReason,
} from '@shared/domain/debugger';
import { compileArgsPattern, formatBreakpoint } from '@shared/domain/debugger';
import type { ToolCall } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { GateRequest } from './gate';
import { costOf, type Pricing } from './pricing';

type ArgsMatcher = ((text: string) => boolean) & { isRegex: boolean };

interface Entry {
  breakpoint: Breakpoint;
  /** for tool breakpoints with an argument pattern */
  matches?: ArgsMatcher;
}

export class BreakpointBook {
  private entries: Entry[] = [];
  /** the entries each kind of safe point looks at (rebuilt when the list changes) */
  private toolEntries: Entry[] = [];
  private stepEntries: Entry[] = [];
  private budgetEntries: Entry[] = [];
  /** the lowest unspent budgets: below them no budget entry needs a look */
  private tokenFloor = Infinity;
  private costFloor = Infinity;
  private rules: ApprovalRule[] = [];
  private nextId = 1;
  private pending: PauseReason[] = [];
  /** once-only breakpoints (step, budgets) that have fired */
  private readonly fired = new Set<string>();
  /** calls the user skipped: their "failure" is not a tool error */
  readonly skipped = new Set<string>();
  private runTokens = 0;
  private runCost = 0;
  private runStep = 0;
  pricing: Pricing | undefined;
  /** the string values of the call last looked at (every pattern breakpoint checks the same call) */
  private valuesCache: { call: ToolCall; values: string[] } | null = null;

  /** the run's current step, as its events number it (run-wide in a flow) */
  get step(): number {
    return this.runStep;
  }

  get tokens(): number {
    return this.runTokens;
  }

  get cost(): number {
    return this.runCost;
  }

  /** Nothing to judge: the safe points can answer at once. */
  get isQuiet(): boolean {
    return this.entries.length === 0 && this.rules.length === 0 && this.pending.length === 0;
  }

  get breakpoints(): Breakpoint[] {
    return this.entries.map((e) => e.breakpoint);
  }

  get approvals(): ApprovalRule[] {
    return this.rules.slice();
  }

  add(condition: BreakpointCondition, origin: Breakpoint['origin'], agent?: string): Breakpoint {
    const breakpoint: Breakpoint = {
      id: `bp-${this.nextId++}`,
      condition,
      spec: formatBreakpoint(condition),
      origin,
      ...(agent ? { agent } : {}),
    };
    const entry: Entry = { breakpoint };
    if (condition.kind === 'tool' && condition.argsPattern) {
      const pattern = condition.argsPattern;
      entry.matches = Object.assign(compileArgsPattern(pattern), {
        isRegex: /^\/.+\/[a-z]*$/s.test(pattern),
      });
    }
    this.entries.push(entry);
    this.reindex();
    return breakpoint;
  }

  remove(id: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.breakpoint.id !== id);
    this.reindex();
    this.pending = this.pending.filter((r) => r.kind !== 'breakpoint' || r.breakpointId !== id);
    return this.entries.length < before;
  }

  setApprovals(rules: ApprovalRule[]): void {
    this.rules = rules;
  }

  /** Learns from one of the run's events; a met condition waits for the next safe point. */
  observe(event: RunEventPayload): void {
    switch (event.type) {
      case 'step.started':
        this.runStep = event.step;
        return;
      case 'llm.responded': {
        this.runTokens += event.usage.prompt + event.usage.completion;
        const price = this.pricing?.priceOf(event.model);
        if (price) this.runCost += costOf(event.usage, price);
        return;
      }
      case 'tool.finished': {
        const failed = !event.ok || (event.exitCode !== undefined && event.exitCode !== 0);
        if (!failed || this.skipped.has(event.toolCallId)) return;
        // A command that exited non-zero has `ok` false but no error of its own: say the code.
        const what =
          event.error === undefined && event.exitCode !== undefined && event.exitCode !== 0
            ? `exited with ${event.exitCode}`
            : `failed: ${oneLine(event.error ?? 'error')}`;
        return this.hit('tool_error', event.agent, `${event.name} (${event.toolCallId}) ${what}`);
      }
      case 'stuck.detected':
        return this.hit(
          'stuck',
          event.agent,
          `${event.agent} repeated ${event.kind === 'content' ? 'its reply' : 'its tool calls'} ${event.count}×`,
        );
      case 'llm.retried':
        return this.hit(
          'model_error',
          event.agent,
          `the model call was retried (attempt ${event.attempt}${event.status !== null ? `, HTTP ${event.status}` : ''}): ${oneLine(event.error)}`,
        );
      default:
        return;
    }
  }

  /** A model call failed for good: the reasons to pause on it (none: the run ends as before). */
  modelFailed(agent: string, error: string): PauseReason[] {
    return this.entries
      .filter((e) => e.breakpoint.condition.kind === 'model_error' && inScope(e, agent))
      .map((e) => reason(e.breakpoint, `the model call failed: ${oneLine(error)}`));
  }

  /**
   * Every reason to pause at this safe point; pending hits are used up. Only the
   * breakpoints that concern the point are looked at (tool ones before tool calls, step
   * ones before a model call, budgets while unspent), so ten breakpoints that do not
   * fire cost a few comparisons.
   */
  reasonsAt(request: GateRequest): readonly PauseReason[] {
    let reasons: PauseReason[] | null = null;
    if (this.pending.length > 0) {
      reasons = this.pending;
      this.pending = [];
    }
    if (request.point === 'before_tools' && this.toolEntries.length > 0) {
      for (const call of request.calls ?? []) {
        for (const { breakpoint, matches } of this.toolEntries) {
          const { condition } = breakpoint;
          if (condition.kind !== 'tool' || call.function.name !== condition.tool) continue;
          if (breakpoint.agent !== undefined && breakpoint.agent !== request.agent) continue;
          if (matches && !this.argsMatch(call, matches)) continue;
          (reasons ??= []).push(
            reason(
              breakpoint,
              `${request.agent} is about to run ${condition.tool} (${call.id})${matches ? ' with matching arguments' : ''}`,
            ),
          );
        }
      }
    }
    if (request.point === 'before_model' && this.stepEntries.length > 0) {
      for (const { breakpoint } of this.stepEntries) {
        const { condition } = breakpoint;
        if (condition.kind !== 'step' || condition.step !== this.runStep) continue;
        if (breakpoint.agent !== undefined && breakpoint.agent !== request.agent) continue;
        this.fire(breakpoint.id);
        (reasons ??= []).push(
          reason(breakpoint, `step ${condition.step} is about to call the model`),
        );
      }
    }
    if (this.runTokens > this.tokenFloor || this.runCost > this.costFloor) {
      for (const { breakpoint } of this.budgetEntries) {
        const { condition } = breakpoint;
        if (condition.kind === 'tokens' && this.runTokens > condition.limit) {
          this.fire(breakpoint.id);
          (reasons ??= []).push(
            reason(
              breakpoint,
              `the run has used ${this.runTokens} tokens (budget ${condition.limit})`,
            ),
          );
        } else if (condition.kind === 'cost' && this.runCost > condition.limitUsd) {
          this.fire(breakpoint.id);
          (reasons ??= []).push(
            reason(
              breakpoint,
              `the run's estimated cost is $${this.runCost.toFixed(4)} (budget $${condition.limitUsd})`,
            ),
          );
        }
      }
    }
    if (request.point === 'before_tools' && this.rules.length > 0) {
      const tools = [...new Set(this.awaitingApproval(request).map((c) => c.function.name))];
      if (tools.length > 0) (reasons ??= []).push({ kind: 'approval', tools });
    }
    return reasons ?? NO_REASONS;
  }

  /** The proposed calls that approval mode holds for a decision. */
  awaitingApproval(request: Pick<GateRequest, 'agent' | 'calls'>): ToolCall[] {
    if (this.rules.length === 0) return [];
    return (request.calls ?? []).filter((call) =>
      this.rules.some(
        (rule) =>
          rule.tool === call.function.name &&
          (rule.agent === undefined || rule.agent === request.agent),
      ),
    );
  }

  /** A once-only breakpoint fired: it is no longer looked at. */
  private fire(id: string): void {
    this.fired.add(id);
    this.reindex();
  }

  private reindex(): void {
    const live = this.entries.filter((e) => !this.fired.has(e.breakpoint.id));
    const kind = (e: Entry) => e.breakpoint.condition.kind;
    this.toolEntries = live.filter((e) => kind(e) === 'tool');
    this.stepEntries = live.filter((e) => kind(e) === 'step');
    this.budgetEntries = live.filter((e) => kind(e) === 'tokens' || kind(e) === 'cost');
    this.tokenFloor = Math.min(
      ...this.budgetEntries.map((e) => {
        const c = e.breakpoint.condition;
        return c.kind === 'tokens' ? c.limit : Infinity;
      }),
    );
    this.costFloor = Math.min(
      ...this.budgetEntries.map((e) => {
        const c = e.breakpoint.condition;
        return c.kind === 'cost' ? c.limitUsd : Infinity;
      }),
    );
  }

  /** A met condition; a second hit of the same breakpoint before the pause adds its detail. */
  /**
   * The pattern is tried on the raw arguments and on each string value in them. A
   * substring that is not in escape-free raw arguments is in none of their values.
   */
  private argsMatch(call: ToolCall, matches: ArgsMatcher): boolean {
    const raw = call.function.arguments;
    if (matches(raw)) return true;
    if (!matches.isRegex && !raw.includes('\\')) return false;
    if (this.valuesCache?.call !== call) this.valuesCache = { call, values: stringValues(raw) };
    return this.valuesCache.values.some(matches);
  }

  private hit(kind: 'tool_error' | 'stuck' | 'model_error', agent: string, detail: string): void {
    for (const entry of this.entries) {
      if (entry.breakpoint.condition.kind !== kind || !inScope(entry, agent)) continue;
      const id = entry.breakpoint.id;
      const earlier = this.pending.findIndex(
        (r) => r.kind === 'breakpoint' && r.breakpointId === id,
      );
      const found = this.pending[earlier];
      if (found?.kind === 'breakpoint')
        this.pending[earlier] = { ...found, detail: `${found.detail}; ${detail}` };
      else this.pending.push(reason(entry.breakpoint, detail));
    }
  }
}

function inScope(entry: { breakpoint: Breakpoint }, agent: string): boolean {
  return entry.breakpoint.agent === undefined || entry.breakpoint.agent === agent;
}

const NO_REASONS: readonly PauseReason[] = Object.freeze([]);

function reason(breakpoint: Breakpoint, detail: string): PauseReason {
  return { kind: 'breakpoint', breakpointId: breakpoint.id, condition: breakpoint.spec, detail };
}

/** The string values of a call's arguments (so `/^rm\s/` can match a command). */
function stringValues(raw: string): string[] {
  const values: string[] = [];
  if (!raw.includes('\\')) {
    // No escapes: each string token is the text between two quotes; a token followed by
    // a colon is a key. Found by a scan, without a full parse.
    for (let at = raw.indexOf('"'); at >= 0;) {
      const end = raw.indexOf('"', at + 1);
      if (end < 0) break;
      let next = end + 1;
      while (
        next < raw.length &&
        (raw[next] === ' ' || raw[next] === '\n' || raw[next] === '\t' || raw[next] === '\r')
      )
        next++;
      if (raw[next] !== ':') values.push(raw.slice(at + 1, end));
      at = raw.indexOf('"', end + 1);
    }
    return values;
  }
  try {
    collectStrings(JSON.parse(raw), values);
  } catch {
    // arguments that do not parse have no values; the raw text was tried
  }
  return values;
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
  else if (typeof value === 'object' && value !== null)
    for (const key in value) collectStrings((value as Record<string, unknown>)[key], out);
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
