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

interface Entry {
  breakpoint: Breakpoint;
  /** for tool breakpoints with an argument pattern */
  matches?: (text: string) => boolean;
}

export class BreakpointBook {
  private entries: Entry[] = [];
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
    if (condition.kind === 'tool' && condition.argsPattern)
      entry.matches = compileArgsPattern(condition.argsPattern);
    this.entries.push(entry);
    return breakpoint;
  }

  remove(id: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.breakpoint.id !== id);
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
        const what = event.ok
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

  /** Every reason to pause at this safe point; pending hits are used up. */
  reasonsAt(request: GateRequest): PauseReason[] {
    const reasons: PauseReason[] = this.pending.length > 0 ? this.pending : [];
    if (reasons.length > 0) this.pending = [];
    for (const { breakpoint, matches } of this.entries) {
      const { condition } = breakpoint;
      switch (condition.kind) {
        case 'tool':
          if (request.point !== 'before_tools' || !inScope({ breakpoint }, request.agent)) break;
          for (const call of request.calls ?? []) {
            if (call.function.name !== condition.tool) continue;
            if (matches && !argsMatch(call, matches)) continue;
            reasons.push(
              reason(
                breakpoint,
                `${request.agent} is about to run ${condition.tool} (${call.id})${matches ? ' with matching arguments' : ''}`,
              ),
            );
          }
          break;
        case 'step':
          if (request.point !== 'before_model' || this.runStep !== condition.step) break;
          if (!inScope({ breakpoint }, request.agent) || this.fired.has(breakpoint.id)) break;
          this.fired.add(breakpoint.id);
          reasons.push(reason(breakpoint, `step ${condition.step} is about to call the model`));
          break;
        case 'tokens':
          if (this.runTokens <= condition.limit || this.fired.has(breakpoint.id)) break;
          this.fired.add(breakpoint.id);
          reasons.push(
            reason(
              breakpoint,
              `the run has used ${this.runTokens} tokens (budget ${condition.limit})`,
            ),
          );
          break;
        case 'cost':
          if (this.runCost <= condition.limitUsd || this.fired.has(breakpoint.id)) break;
          this.fired.add(breakpoint.id);
          reasons.push(
            reason(
              breakpoint,
              `the run's estimated cost is $${this.runCost.toFixed(4)} (budget $${condition.limitUsd})`,
            ),
          );
          break;
        default:
          break;
      }
    }
    if (request.point === 'before_tools' && this.rules.length > 0) {
      const tools = [...new Set(this.awaitingApproval(request).map((c) => c.function.name))];
      if (tools.length > 0) reasons.push({ kind: 'approval', tools });
    }
    return reasons;
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

  /** A met condition; a second hit of the same breakpoint before the pause adds its detail. */
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

function reason(breakpoint: Breakpoint, detail: string): PauseReason {
  return { kind: 'breakpoint', breakpointId: breakpoint.id, condition: breakpoint.spec, detail };
}

/** The pattern is tried on the raw arguments and on each string value in them. */
function argsMatch(call: ToolCall, matches: (text: string) => boolean): boolean {
  const raw = call.function.arguments;
  if (matches(raw)) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return false;
  }
  return stringsIn(parsed).some(matches);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
