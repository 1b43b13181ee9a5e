/**
 * PlanningFlow (OpenManus flow/planning.py) with its defects fixed (openmanus.md §6):
 *
 * - each step's outcome drives its status: completed when the executor terminates with
 *   success, retried a bounded number of times otherwise, then blocked (the original
 *   marked every step completed, and looped forever when an executor raised);
 * - a blocked step triggers a bounded replan by the planner;
 * - an executor can finish the whole task early with `finish_plan` (the original's
 *   early exit could never fire, because run() always restored IDLE);
 * - executors are fresh per step unless `carryMemory` is set (the original reused one
 *   instance, so memory and the step counter leaked across steps);
 * - the executor is chosen by the step's `[agent]` tag in any case (the original matched
 *   only uppercase tags), else the default executor;
 * - one step budget for the whole run, and a final summary.
 */
import type { RunOutcome, TokenUsage } from '@shared/domain/agent';
import type { RunEventPayload } from '@shared/events';
import type { RunResult } from '@shared/domain/agent';
import { Memory } from '../loop/memory';
import type { ResumePoint } from '../loop/base-agent';
import { toEventMessage } from '../loop/event-message';
import type { LlmClient } from '../llm/llm-client';
import type { Tool } from '../tools/tool';
import { createPlanningTool } from '../tools/planning/planning-tool';
import { isCancellation } from '../util/abort';
import type { DebugGate } from '../debug/gate';
import { createFinishPlanTool, FINISH_PLAN_TOOL } from './finish-plan-tool';
import { FlowEventMapper } from './flow-event-mapper';
import { ACTIVE_STATUSES, formatPlan, stepAgentTag, type Plan } from '../tools/planning/plan';
import { PlanStore } from '../tools/planning/plan-store';
import {
  createInitialPlan,
  PLANNER_AGENT,
  replan,
  summarize,
  type ExecutorInfo,
  type PlannerDeps,
} from './planner';

/** What the flow needs to run an executor agent for one plan step. */
export interface ExecutorRunner {
  run(prompt: string, signal: AbortSignal): Promise<RunResult>;
  dispose(): Promise<void>;
}

export interface ExecutorSpec extends ExecutorInfo {
  /**
   * Builds an executor whose events go to `emit`, with at most `maxSteps` steps, and with
   * `extraTools` (planning, finish_plan) added; names in `specialToolNames` end its run.
   */
  create(options: {
    emit: (event: RunEventPayload) => void;
    maxSteps: number;
    extraTools: Tool[];
    specialToolNames: string[];
  }): Promise<ExecutorRunner>;
  /** the executor's own step limit */
  maxSteps: number;
}

export interface PlanningFlowOptions {
  planner: LlmClient;
  /** the planner's system prompt when it is a user agent; default the flow's own */
  plannerPrompt?: string;
  executors: ExecutorSpec[];
  /** the executor for untagged steps; defaults to the first */
  defaultExecutor?: string;
  /** step budget for the whole run (all executors together) */
  maxSteps: number;
  /** extra attempts of a failing step before it is blocked */
  maxStepRetries?: number;
  /** replans allowed over the whole run */
  maxReplans?: number;
  /** reuse one executor instance (and its memory) across steps */
  carryMemory?: boolean;
  emit: (event: RunEventPayload) => void;
  planId?: string;
  /** the run's debugger: the planner's model calls are safe points too */
  debug?: DebugGate;
}

/** Where a forked flow picks up (rebuilt from the parent's history: timetravel/flow-state.ts). */
export interface FlowResumePoint {
  plan: Plan;
  /** the planner's memory at the fork step */
  planner: Pick<ResumePoint, 'entries' | 'pinnedIndex' | 'nextIndex'>;
  /** run-wide steps already used; the fork counts on from there */
  stepsUsed: number;
  /** added to the planner's memory and to each remaining step's prompt */
  message?: string;
}

export class PlanningFlow {
  private readonly store: PlanStore;
  private readonly usage: TokenUsage = { prompt: 0, completion: 0 };
  private readonly mapper: FlowEventMapper;
  private readonly memory: Memory;
  private readonly retries: number;
  private readonly replansAllowed: number;
  private readonly carried = new Map<string, ExecutorRunner>();
  private finishRequested: string | null = null;
  /** a forked flow's added message, given to every remaining step */
  private note: string | undefined;

  constructor(private readonly options: PlanningFlowOptions) {
    if (options.executors.length === 0)
      throw new Error('PlanningFlow needs at least one executor agent');
    this.store = new PlanStore(options.emit);
    this.mapper = new FlowEventMapper(options.emit, options.maxSteps);
    this.retries = options.maxStepRetries ?? 1;
    this.replansAllowed = options.maxReplans ?? 2;
    this.memory = new Memory(1000, {
      appended: (index, message) =>
        options.emit({
          type: 'memory.appended',
          agent: PLANNER_AGENT,
          index,
          message: toEventMessage(message),
        }),
    });
  }

  async run(
    task: string,
    options: { signal?: AbortSignal; resume?: FlowResumePoint } = {},
  ): Promise<RunResult> {
    const signal = options.signal ?? new AbortController().signal;
    const emit = this.options.emit;
    emit({ type: 'state.changed', agent: PLANNER_AGENT, from: 'IDLE', to: 'RUNNING' });
    const resume = options.resume;
    if (resume) {
      this.memory.restore(
        resume.planner.entries,
        resume.planner.pinnedIndex,
        resume.planner.nextIndex,
      );
      this.mapper.startAt(resume.stepsUsed);
      if (resume.message) {
        this.memory.add({ role: 'user', content: resume.message });
        this.note = resume.message;
      }
    } else this.memory.pinTask({ role: 'user', content: task });
    const stepResults: string[] = [];
    let outcome: RunOutcome;
    let error: string | undefined;
    let plan: Plan | undefined;
    try {
      if (resume) {
        // The plan as the parent had it at the fork step; a step in progress runs again.
        plan = this.store.restore(resume.plan);
      } else {
        const planId = this.options.planId ?? `plan_${Date.now()}`;
        const created = await createInitialPlan(
          this.plannerDeps(),
          planId,
          task,
          this.options.executors,
          signal,
        );
        plan = created.plan;
        this.memory.add({
          role: 'assistant',
          content: `${created.fromModel ? '' : 'The planner made no plan; running the task as a single step.\n\n'}${formatPlan(plan)}`,
        });
      }
      outcome = await this.executePlan(plan.id, task, signal, stepResults);
      plan = this.store.get(plan.id) ?? plan;
      if (outcome !== 'cancelled') {
        const summary = await summarize(this.plannerDeps(), plan, task, signal);
        this.memory.add({ role: 'assistant', content: summary });
        stepResults.push(summary);
      }
    } catch (caught) {
      if (isCancellation(caught, signal)) outcome = 'cancelled';
      else {
        outcome = 'error';
        error = caught instanceof Error ? caught.message : String(caught);
      }
    } finally {
      await Promise.allSettled([...this.carried.values()].map((e) => e.dispose()));
    }
    const state = outcome === 'error' ? 'ERROR' : 'FINISHED';
    emit({ type: 'state.changed', agent: PLANNER_AGENT, from: 'RUNNING', to: state });
    const blocked = plan ? (this.store.get(plan.id)?.statuses.includes('blocked') ?? false) : false;
    return {
      outcome,
      state,
      steps: this.mapper.stepsUsed,
      usage: { ...this.usage },
      ...(outcome === 'finished' ? { terminateStatus: blocked ? 'failure' : 'success' } : {}),
      ...(error !== undefined ? { error } : {}),
      stepResults,
    };
  }

  private async executePlan(
    planId: string,
    task: string,
    signal: AbortSignal,
    results: string[],
  ): Promise<RunOutcome> {
    const attempts = new Map<number, number>();
    let replans = 0;
    // A hard bound on iterations on top of the step budget: the loop can never spin.
    const maxIterations = 200;
    for (let iteration = 0; iteration < maxIterations; iteration++) {
      const plan = this.store.get(planId);
      if (!plan) throw new Error(`The plan ${planId} was deleted during the run`);
      const index = plan.statuses.findIndex((s) => ACTIVE_STATUSES.includes(s));
      if (index < 0) return 'finished';
      const remaining = this.options.maxSteps - this.mapper.stepsUsed;
      if (remaining <= 0) return 'max_steps';

      this.store.mark(planId, index, 'in_progress');
      const spec = this.executorFor(plan.steps[index]!);
      const result = await this.runStep(spec, planId, index, task, remaining, signal);
      if (result.outcome === 'cancelled') return 'cancelled';
      const summary = result.stepResults.at(-1) ?? '';
      results.push(
        `Step ${index} (${spec.key}): ${result.outcome}${summary ? ` - ${summary}` : ''}`,
      );

      if (this.finishRequested !== null) {
        this.finishEarly(planId, index, this.finishRequested);
        return 'finished';
      }
      const succeeded = result.outcome === 'finished' && result.terminateStatus !== 'failure';
      if (succeeded) {
        this.store.mark(
          planId,
          index,
          'completed',
          `Done by ${spec.key} in ${result.steps} step(s)`,
        );
        continue;
      }
      const reason = failureReason(result);
      const tries = (attempts.get(index) ?? 0) + 1;
      attempts.set(index, tries);
      if (tries <= this.retries) {
        this.store.mark(
          planId,
          index,
          'in_progress',
          `Attempt ${tries} failed: ${reason}; retrying`,
        );
        continue;
      }
      this.store.mark(planId, index, 'blocked', `Blocked after ${tries} attempt(s): ${reason}`);
      if (replans < this.replansAllowed && this.mapper.stepsUsed < this.options.maxSteps) {
        replans++;
        const current = this.store.get(planId)!;
        await replan(this.plannerDeps(), current, index, reason, this.options.executors, signal);
      }
    }
    throw new Error('PlanningFlow stopped: too many iterations without finishing the plan');
  }

  private async runStep(
    spec: ExecutorSpec,
    planId: string,
    index: number,
    task: string,
    remaining: number,
    signal: AbortSignal,
  ): Promise<RunResult> {
    const plan = this.store.get(planId)!;
    const emit = this.mapper.segment();
    this.finishRequested = null;
    const executor = await this.executorInstance(spec, Math.min(spec.maxSteps, remaining), emit);
    let result: RunResult;
    try {
      const prompt = stepPrompt(task, plan, index);
      result = await executor.run(
        this.note ? `${prompt}\n\nNote from the user: ${this.note}` : prompt,
        signal,
      );
    } finally {
      if (!this.options.carryMemory) await executor.dispose();
    }
    this.mapper.endSegment(result.steps);
    this.usage.prompt += result.usage.prompt;
    this.usage.completion += result.usage.completion;
    return result;
  }

  private async executorInstance(
    spec: ExecutorSpec,
    maxSteps: number,
    emit: (event: RunEventPayload) => void,
  ): Promise<ExecutorRunner> {
    const carried = this.options.carryMemory ? this.carried.get(spec.key) : undefined;
    if (carried) return carried;
    const runner = await spec.create({
      emit: (event) => emit(event),
      maxSteps,
      extraTools: [
        createPlanningTool(this.store),
        createFinishPlanTool((summary) => (this.finishRequested = summary)),
      ],
      specialToolNames: ['terminate', FINISH_PLAN_TOOL],
    });
    if (this.options.carryMemory) this.carried.set(spec.key, runner);
    return runner;
  }

  private executorFor(stepText: string): ExecutorSpec {
    const tag = stepAgentTag(stepText);
    const byKey = (key: string | undefined) => this.options.executors.find((e) => e.key === key);
    return byKey(tag) ?? byKey(this.options.defaultExecutor) ?? this.options.executors[0]!;
  }

  private finishEarly(planId: string, index: number, summary: string): void {
    this.store.mark(
      planId,
      index,
      'completed',
      summary || 'The executor reported the whole task complete',
    );
    const plan = this.store.get(planId)!;
    plan.statuses.forEach((status, i) => {
      if (i !== index && ACTIVE_STATUSES.includes(status)) {
        this.store.mark(
          planId,
          i,
          'completed',
          `Skipped: the task was finished early at step ${index}`,
        );
      }
    });
  }

  private plannerDeps(): PlannerDeps {
    return {
      llm: this.options.planner,
      store: this.store,
      emit: this.options.emit,
      usage: this.usage,
      currentStep: () => this.mapper.stepsUsed,
      ...(this.options.plannerPrompt !== undefined
        ? { systemPrompt: this.options.plannerPrompt }
        : {}),
      pause: (signal) =>
        this.options.debug?.gate({ agent: PLANNER_AGENT, point: 'planner', signal }) ?? null,
    };
  }
}

function failureReason(result: RunResult): string {
  if (result.outcome === 'error') return result.error ?? 'the executor failed';
  if (result.outcome === 'max_steps') return 'the executor reached its step limit';
  return 'the executor reported failure';
}

function stepPrompt(task: string, plan: Plan, index: number): string {
  return [
    `OVERALL TASK: ${task}`,
    '',
    'CURRENT PLAN STATUS:',
    formatPlan(plan),
    '',
    `YOUR CURRENT TASK: step ${index}: "${plan.steps[index]}"`,
    'Do only this step, using your tools. When it is done, call `terminate` with status "success" ' +
      '(or "failure" if it cannot be done, after saying why). If the whole task is already complete, ' +
      `call \`${FINISH_PLAN_TOOL}\` with a short summary instead.`,
  ].join('\n');
}
