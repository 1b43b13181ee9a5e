/**
 * One run's debugger: pause and resume, step, breakpoints, approval mode and edits.
 *
 * The loop awaits `gate()` at its safe points; a pause holds the loop there (its model
 * client, tools and sandbox stay as they are, and nothing is spent), until `resume` or
 * `step`, or until the run is stopped: the run's abort signal rejects the wait at once,
 * so a paused run stops like a running one. Every pause, resume and edit is a RunEvent
 * (`run.paused`, `run.resumed`, `run.edited`, `breakpoints.changed`), so the history
 * stays an exact record and a UI that reconnects finds the run paused.
 *
 * Requests (from the contract or the CLI's terminal) are checked against the state:
 * resuming a run that is not paused, or an edit that does not belong to the point where
 * the run waits, is a DebugError with a message that says what does apply.
 */
import {
  EDITS_AT,
  parseBreakpoint,
  type ApprovalRule,
  type Breakpoint,
  type DebugActor,
  type DebugEdit,
  type DebugStatus,
  type EditRecord,
  type EditResult,
  type PausePoint,
  type PauseReason,
  type ResumeMode,
} from '@shared/domain/debugger';
import type { RunEventPayload } from '@shared/events';
import { abortError } from '../util/abort';
import { BreakpointBook } from './breakpoint-book';
import { DebugError } from './debug-error';
import type { DebugGate, GateRequest, ModelSwitch } from './gate';
import type { Pricing } from './pricing';

interface Paused {
  request: GateRequest;
  /** why it paused: a pause for approvals alone ends once every call is decided */
  reasons: readonly PauseReason[];
  awaiting: string[];
  go(mode: ResumeMode, actor: DebugActor): void;
}

const AT: Record<PausePoint, string> = {
  before_model: 'before a model call',
  before_tools: 'before its tool calls run',
  model_error: 'after a failed model call',
  planner: "before the planner's model call",
  sampling: 'before a model call an MCP server asked for (sampling)',
};

export class RunDebugger implements DebugGate {
  private readonly book = new BreakpointBook();
  private readonly models = new Map<string, ModelSwitch>();
  private isPauseRequested = false;
  /** set by a step: pause at the next safe point, or at the next model call */
  private stepTarget: { scope: 'model' | 'cycle' } | null = null;
  private paused: Paused | null = null;
  private isAnnounced = false;
  /** who made the latest change of breakpoints (reported when the run starts) */
  private lastChangeBy: DebugActor | 'config' = 'ui';

  constructor(
    private readonly emit: (event: RunEventPayload) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get status(): DebugStatus {
    if (this.paused) return { state: 'paused' };
    return { state: this.isPauseRequested || this.stepTarget ? 'pausing' : 'running' };
  }

  /**
   * Could a safe point pause now (a pause or step asked for, breakpoints, approvals)?
   * The model gateway streams a reply straight through when it could not.
   */
  get isWatching(): boolean {
    return this.isPauseRequested || this.stepTarget !== null || !this.book.isQuiet;
  }

  get breakpoints(): Breakpoint[] {
    return this.book.breakpoints;
  }

  get approvals(): ApprovalRule[] {
    return this.book.approvals;
  }

  /** Feeds the run's events to the conditions (called for every event the run emits). */
  observe(event: RunEventPayload): void {
    this.book.observe(event);
  }

  // ---- set up by the run factory, before the run starts

  /**
   * Adds breakpoints in their text form (the run's own, or an agent's from config.toml);
   * throws DebugError naming the first bad one.
   */
  addBreakpoints(specs: readonly string[], by: DebugActor | 'config', agent?: string): void {
    if (specs.length === 0) return;
    for (const spec of specs) this.addOne(spec, by === 'config' ? 'config' : 'run', agent);
    this.announceChange(by);
  }

  /** Adds approval rules: the run's own, or an agent's from config.toml (scoped to it). */
  addApprovals(tools: readonly string[], by: DebugActor | 'config', agent?: string): void {
    if (tools.length === 0) return;
    const known = this.book.approvals;
    const added = tools
      .map((tool) => ({ tool, ...(agent ? { agent } : {}) }))
      .filter((r) => !known.some((k) => k.tool === r.tool && k.agent === r.agent));
    this.book.setApprovals([...known, ...added]);
    this.announceChange(by);
  }

  setPricing(pricing: Pricing): void {
    this.book.pricing = pricing;
  }

  /** How `change_model` edits reach this agent's model client (for the rest of the run). */
  registerModelSwitch(agent: string, model: ModelSwitch): void {
    this.models.set(agent, model);
  }

  /** The run has started: report the breakpoints it starts with; later changes follow. */
  announce(): void {
    this.isAnnounced = true;
    if (this.book.breakpoints.length > 0 || this.book.approvals.length > 0)
      this.emitBreakpoints(this.lastChangeBy);
  }

  // ---- requests

  pause(): DebugStatus {
    if (!this.paused) this.isPauseRequested = true;
    return this.status;
  }

  resume(mode: ResumeMode, actor: DebugActor): DebugStatus {
    const paused = this.paused;
    if (!paused) {
      throw new DebugError(
        'conflict',
        mode === 'continue'
          ? 'The run is not paused.'
          : 'The run is not paused: pause it first, then step.',
      );
    }
    this.stepTarget = mode === 'continue' ? null : { scope: mode };
    paused.go(mode, actor);
    return this.status;
  }

  setBreakpoint(spec: string, actor: DebugActor): Breakpoint {
    const breakpoint = this.addOne(spec, 'run');
    this.announceChange(actor);
    return breakpoint;
  }

  clearBreakpoint(id: string, actor: DebugActor): void {
    if (!this.book.remove(id)) {
      throw new DebugError(
        'not_found',
        `No breakpoint ${id} in this run (it has: ${this.book.breakpoints.map((b) => b.id).join(', ') || 'none'}).`,
      );
    }
    this.announceChange(actor);
  }

  /** Replaces the approval list: calls of these tools wait for approve / edit / skip. */
  setApprovals(tools: readonly string[], actor: DebugActor): ApprovalRule[] {
    this.book.setApprovals([...new Set(tools)].map((tool) => ({ tool })));
    this.announceChange(actor);
    return this.book.approvals;
  }

  edit(edit: DebugEdit, actor: DebugActor): EditResult {
    const paused = this.paused;
    if (!paused) {
      throw new DebugError('conflict', 'The run is not paused: edits apply only while it waits.');
    }
    const { point, agent, session } = paused.request;
    const allowed = EDITS_AT[point];
    if (!allowed.includes(edit.kind)) {
      throw new DebugError(
        'conflict',
        `${edit.kind} does not apply now: the run is paused ${AT[point]}, where ${allowed.length > 0 ? `the edits are ${allowed.join(', ')}` : 'nothing can be edited'}.`,
      );
    }
    let applied: { record: EditRecord; toolCallId?: string; index?: number };
    if (edit.kind === 'change_model') {
      const model = this.models.get(agent);
      if (!model)
        throw new DebugError('conflict', `The model of ${agent} cannot be changed in this run.`);
      const before = model.current();
      const after = model.change({
        ...(edit.profile !== undefined ? { profile: edit.profile } : {}),
        ...(edit.temperature !== undefined ? { temperature: edit.temperature } : {}),
      });
      applied = { record: { kind: 'change_model', before, after } };
    } else {
      if (!session) throw new DebugError('conflict', `Nothing can be edited ${AT[point]}.`);
      applied = session.apply(edit);
    }
    const { record } = applied;
    if (record.kind === 'skip_call') this.book.skipped.add(record.toolCallId);
    if ('toolCallId' in record)
      paused.awaiting = paused.awaiting.filter((id) => id !== record.toolCallId);
    this.emit({ type: 'run.edited', agent, step: this.book.step, by: actor, edit: record });
    // Paused only to ask for approvals, and the last waiting call was just approved or
    // skipped: nothing is left to decide, so the run goes on (issue 25 item 5: every
    // gated call needed Approve and then Resume). An edit alone does not decide a call.
    const isDecision = record.kind === 'approve_call' || record.kind === 'skip_call';
    const isApprovalPause = paused.reasons.every((r) => r.kind === 'approval');
    const resumes = isDecision && isApprovalPause && paused.awaiting.length === 0;
    if (resumes) paused.go('continue', actor);
    return {
      applied: true,
      ...(applied.toolCallId !== undefined ? { toolCallId: applied.toolCallId } : {}),
      ...(applied.index !== undefined ? { index: applied.index } : {}),
      ...(resumes ? { resumed: true as const } : {}),
    };
  }

  // ---- the loop's side

  gate(request: GateRequest): Promise<void> | null {
    if (!this.isPauseRequested && this.stepTarget === null && this.book.isQuiet) return null;
    const found = this.book.reasonsAt(request);
    const step = this.stepTarget;
    const isStepDue = step !== null && (step.scope === 'model' || request.point !== 'before_tools');
    if (found.length === 0 && !this.isPauseRequested && !isStepDue) return null;
    const reasons: PauseReason[] = [
      ...(isStepDue ? [{ kind: 'step' as const, scope: step.scope }] : []),
      ...(this.isPauseRequested ? [{ kind: 'user' as const }] : []),
      ...found,
    ];
    return this.hold(request, reasons);
  }

  modelError(request: GateRequest & { error: string }): Promise<void> | null {
    const reasons = this.book.modelFailed(request.agent, request.error);
    if (reasons.length === 0) return null;
    return this.hold(request, reasons);
  }

  private hold(request: GateRequest, reasons: PauseReason[]): Promise<void> {
    const { signal } = request;
    if (signal.aborted) return Promise.reject(abortError(signal));
    this.isPauseRequested = false;
    this.stepTarget = null;
    const awaiting =
      request.point === 'before_tools' ? this.book.awaitingApproval(request).map((c) => c.id) : [];
    const since = this.now();
    const held = new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.paused = null;
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const paused: Paused = {
        request,
        reasons,
        awaiting,
        go: (mode, actor) => {
          signal.removeEventListener('abort', onAbort);
          this.paused = null;
          // Calls still waiting for approval are approved by resuming: say so in the record.
          for (const record of request.session?.finish?.(paused.awaiting) ?? [])
            this.emit({
              type: 'run.edited',
              agent: request.agent,
              step: this.book.step,
              by: actor,
              edit: record,
            });
          this.emit({
            type: 'run.resumed',
            agent: request.agent,
            step: this.book.step,
            mode,
            by: actor,
            pausedMs: this.now() - since,
          });
          resolve();
        },
      };
      this.paused = paused;
    });
    // Reported once the run is paused, so a listener may act on it (resume, edit) at once.
    this.emit({
      type: 'run.paused',
      agent: request.agent,
      step: this.book.step,
      point: request.point,
      reasons,
      ...(request.calls ? { calls: [...request.calls] } : {}),
      ...(awaiting.length > 0 ? { awaitingApproval: awaiting } : {}),
      ...(request.error !== undefined ? { error: request.error } : {}),
    });
    return held;
  }

  private addOne(spec: string, origin: Breakpoint['origin'], agent?: string): Breakpoint {
    const parsed = parseBreakpoint(spec);
    if (!parsed.ok) throw new DebugError('invalid_input', parsed.error);
    if (parsed.condition.kind === 'cost') {
      const unpriced = (this.book.pricing?.models ?? []).filter(
        (m) => !this.book.pricing?.priceOf(m),
      );
      if (!this.book.pricing || unpriced.length > 0) {
        throw new DebugError(
          'invalid_input',
          `Breakpoint "${spec.trim()}": the cost of ${unpriced.join(', ') || 'this run'} cannot be estimated (no known price). Set input_price and output_price (US dollars per million tokens) in the model's [llm] profile, or use a tokens:N budget.`,
        );
      }
    }
    return this.book.add(parsed.condition, origin, agent);
  }

  private announceChange(by: DebugActor | 'config'): void {
    this.lastChangeBy = by;
    if (this.isAnnounced) this.emitBreakpoints(by);
  }

  private emitBreakpoints(by: DebugActor | 'config'): void {
    this.emit({
      type: 'breakpoints.changed',
      breakpoints: this.book.breakpoints,
      approvals: this.book.approvals,
      by,
    });
  }
}
