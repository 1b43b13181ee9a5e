/**
 * The flow's own model calls: create the plan, revise it when a step is blocked, and
 * summarise at the end. Each call is visible in the run (llm.requested/llm.responded),
 * and each planning call the model makes gets its tool.started/tool.finished.
 */
import type { Message, ToolCall } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { TokenUsage } from '@shared/domain/agent';
import type { ChatRequest, ChatResponse, LlmClient } from '../llm/llm-client';
import { eventMessagesOf, RequestRecorder } from '../llm/request-record';
import { toolSpec } from '../tools/tool';
import { createPlanningTool, type PlanningArgs } from '../tools/planning/planning-tool';
import { formatPlan, type Plan } from '../tools/planning/plan';
import type { PlanStore } from '../tools/planning/plan-store';
import { respondedEvent } from '../llm/responded-event';

export const PLANNER_AGENT = 'planning';

export interface ExecutorInfo {
  key: string;
  description: string;
}

export interface PlannerDeps {
  llm: LlmClient;
  store: PlanStore;
  emit: (event: RunEventPayload) => void;
  usage: TokenUsage;
  /** the run step the planner's events belong to (steps run so far) */
  currentStep: () => number;
  /** the debugger's safe point before each planner call (resolves when the run may go on) */
  pause?: (signal: AbortSignal) => Promise<void> | null;
  /** a user agent's system prompt in place of the fixed one (`[flow.planning] planner`) */
  systemPrompt?: string;
}

const PLANNER_SYSTEM_PROMPT =
  'You are a planning assistant. Break the task into a short, actionable plan of clear steps ' +
  '(key milestones, not sub-steps) and record it with the `planning` tool (command "create").';

/** `base` (a user agent's prompt; default the flow's own) with the executors to tag steps with. */
export function plannerSystemPrompt(
  executors: ExecutorInfo[],
  base: string = PLANNER_SYSTEM_PROMPT,
): string {
  if (executors.length < 2) return base;
  const list = executors.map((e) => `- ${e.key}: ${e.description}`).join('\n');
  return (
    `${base}\n\nThese agents can execute steps:\n${list}\n` +
    'Start each step with the tag of the agent that should do it, e.g. "[swe] Fix the failing test".'
  );
}

/** The plan the model creates, or a one-step plan holding the whole task if it does not. */
export async function createInitialPlan(
  deps: PlannerDeps,
  planId: string,
  task: string,
  executors: ExecutorInfo[],
  signal: AbortSignal,
): Promise<{ plan: Plan; fromModel: boolean }> {
  const messages: Message[] = [
    { role: 'system', content: plannerSystemPrompt(executors, deps.systemPrompt) },
    {
      role: 'user',
      content: `Create a reasonable plan with clear steps to accomplish the task: ${task}`,
    },
  ];
  const response = await ask(deps, messages, signal);
  for (const call of response.toolCalls) {
    const applied = applyPlanningCall(deps, call, planId, 'create');
    if (applied) return { plan: applied, fromModel: true };
  }
  const title = `Plan for: ${task.length > 50 ? `${task.slice(0, 50)}…` : task}`;
  return { plan: deps.store.create(planId, title, [task]), fromModel: false };
}

/** Asks the model to revise the remaining steps after `blockedIndex` was blocked. */
export async function replan(
  deps: PlannerDeps,
  plan: Plan,
  blockedIndex: number,
  reason: string,
  executors: ExecutorInfo[],
  signal: AbortSignal,
): Promise<Plan | null> {
  const messages: Message[] = [
    { role: 'system', content: plannerSystemPrompt(executors, deps.systemPrompt) },
    {
      role: 'user',
      content:
        `${formatPlan(plan)}\n\nStep ${blockedIndex} is blocked: ${reason}\n` +
        'Revise the plan so the task can still be accomplished: call the `planning` tool with command "update" ' +
        'and the complete new list of steps. Keep completed steps exactly as they are; replace or work around the blocked step.',
    },
  ];
  const response = await ask(deps, messages, signal);
  for (const call of response.toolCalls) {
    const applied = applyPlanningCall(deps, call, plan.id, 'update');
    if (applied) return applied;
  }
  return null;
}

export async function summarize(
  deps: PlannerDeps,
  plan: Plan,
  task: string,
  signal: AbortSignal,
): Promise<string> {
  const messages: Message[] = [
    {
      role: 'system',
      content: 'You are a planning assistant. Summarise the outcome of the plan for the user.',
    },
    {
      role: 'user',
      content:
        `The task was: ${task}\n\n${formatPlan(plan)}\n\n` +
        'Summarise what was accomplished, what is blocked or was skipped, and any final thoughts.',
    },
  ];
  const response = await ask(deps, messages, signal, false);
  return response.content ?? formatPlan(plan);
}

async function ask(
  deps: PlannerDeps,
  messages: Message[],
  signal: AbortSignal,
  withTool = true,
): Promise<ChatResponse> {
  const paused = deps.pause?.(signal);
  if (paused) await paused;
  const step = deps.currentStep();
  const tools = withTool ? [toolSpec(createPlanningTool(deps.store))] : undefined;
  const request: ChatRequest = {
    messages,
    ...(tools ? { tools, toolChoice: 'auto' as const } : {}),
  };
  deps.emit({
    type: 'llm.requested',
    agent: PLANNER_AGENT,
    step,
    model: deps.llm.model,
    messageCount: messages.length,
    inputTokens: 0,
    ...(deps.llm.maxAttempts !== undefined ? { maxAttempts: deps.llm.maxAttempts } : {}),
    ...recorderOf(deps).fields(request, deps.llm),
    // built here, not from a memory: recorded as sent
    messages: eventMessagesOf(messages),
  });
  const started = performance.now();
  const response = await deps.llm.complete(request, {
    signal,
    // the planner's retries show in its pending-call row like an agent's (issue 17)
    onRetry: (notice) => deps.emit({ type: 'llm.retried', agent: PLANNER_AGENT, step, ...notice }),
    // the planner's profile gate (max_concurrency, a 429 rest) holds its calls like an agent's
    onQueued: (notice) =>
      deps.emit({
        type: 'llm.queued',
        agent: PLANNER_AGENT,
        step,
        model: deps.llm.model,
        ...notice,
      }),
  });
  deps.usage.prompt += response.usage.prompt;
  deps.usage.completion += response.usage.completion;
  deps.emit(respondedEvent(PLANNER_AGENT, step, response, started));
  return response;
}

/** One recorder per planner, so its tool list is recorded once, not with every call. */
const recorders = new WeakMap<PlannerDeps, RequestRecorder>();
function recorderOf(deps: PlannerDeps): RequestRecorder {
  let recorder = recorders.get(deps);
  if (!recorder) recorders.set(deps, (recorder = new RequestRecorder()));
  return recorder;
}

/**
 * Runs one planning call of the planner, with the plan id forced to the flow's plan and
 * only the expected command accepted. Returns the resulting plan, or null (the call is
 * still answered with a tool.finished that says why).
 */
function applyPlanningCall(
  deps: PlannerDeps,
  call: ToolCall,
  planId: string,
  command: 'create' | 'update',
): Plan | null {
  const step = deps.currentStep();
  const started = performance.now();
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    args = call.function.arguments;
  }
  deps.emit({
    type: 'tool.started',
    agent: PLANNER_AGENT,
    step,
    toolCallId: call.id,
    name: call.function.name,
    args,
  });
  const finish = (ok: boolean, output: string, error?: string) =>
    deps.emit({
      type: 'tool.finished',
      agent: PLANNER_AGENT,
      step,
      toolCallId: call.id,
      name: call.function.name,
      ok,
      output,
      ...(error !== undefined ? { error } : {}),
      durationMs: Math.round(performance.now() - started),
    });

  if (call.function.name !== 'planning') {
    finish(
      false,
      '',
      `Unknown tool '${call.function.name}': the planner only has the planning tool`,
    );
    return null;
  }
  const parsed = createPlanningTool(deps.store).schema.safeParse(args);
  if (!parsed.success || parsed.data.command !== command) {
    const why = parsed.success
      ? `expected command "${command}", got "${parsed.data.command}"`
      : parsed.error.issues[0]?.message;
    finish(false, '', `Invalid planning call: ${why ?? 'bad arguments'}`);
    return null;
  }
  const data: PlanningArgs = { ...parsed.data, plan_id: planId };
  try {
    const plan =
      command === 'create'
        ? deps.store.create(planId, data.title ?? 'Plan', requireSteps(data.steps))
        : deps.store.update(planId, {
            ...(data.title ? { title: data.title } : {}),
            steps: requireSteps(data.steps),
          });
    finish(true, formatPlan(plan));
    return plan;
  } catch (error) {
    finish(false, '', (error as Error).message);
    return null;
  }
}

function requireSteps(steps: string[] | undefined): string[] {
  if (!steps || steps.length === 0)
    throw new Error('Parameter `steps` must be a non-empty list of strings');
  return steps;
}
