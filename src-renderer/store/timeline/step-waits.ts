/**
 * Where a step's time went, kept on its header as the events come (the waterfall strip,
 * `overview.ts`): the model's time, and the waits by kind with the part of them that lies
 * inside the model's or the tools' recorded durations, so the strip takes each wait out
 * of the time that holds it and counts nothing twice (docs/events.md, "Where a step's
 * time went"):
 *
 * - queued for the model: `llm.responded.queuedMs`, inside that call's `durationMs`;
 * - retry backoff: `llm.retried.delayMs`, inside the call's `durationMs` once it answers
 *   (a call that never answers has no model time to take it from);
 * - paused in the debugger: `run.resumed.pausedMs`, between the calls;
 * - queued for a sandbox: `sandbox.changed` `queued` until the next status.
 *
 * A model call a tool makes (`extract_content`) is that tool's time, waits included.
 * A step only gathers waits until it finishes. Runs without waits pay one counter per
 * tool call; the header changes only when a wait or an answer comes.
 */
import type { RunEvent, RunEventOf } from '@shared/events';
import type { StepItem, TimelineModel } from './types';

export interface StepWaits {
  /** waited for a model slot (`[llm.NAME] max_concurrency`, a 429 rest) */
  queuedMs: number;
  /** waited between a failed attempt and the next one */
  backoffMs: number;
  /** paused in the debugger */
  pausedMs: number;
  /** waited for a sandbox slot (`[sandbox] max_containers`) */
  sandboxMs: number;
  /** of the waits, the part inside the step's model time (`StepItem.modelMs`) */
  inModelMs: number;
  /** of the waits, the part inside its tool calls' durations */
  inToolsMs: number;
}

export type WaitKind = 'queuedMs' | 'backoffMs' | 'pausedMs' | 'sandboxMs';

/** What the waits of a step in progress need to know; the draft copies it per batch. */
export interface WaitState {
  /** per agent: its tool calls running now (a wait meanwhile is inside a tool's time) */
  toolsRunning: Record<string, number>;
  /** per agent: the backoff of its model call under way (inside the call if it answers) */
  callBackoffMs: Record<string, number>;
  /** since when the sandbox waits for a slot (event ts) */
  sandboxQueuedSince?: number;
}

export function createWaitState(): WaitState {
  return { toolsRunning: {}, callBackoffMs: {} };
}

export function copyWaitState(state: WaitState): WaitState {
  return {
    toolsRunning: { ...state.toolsRunning },
    callBackoffMs: { ...state.callBackoffMs },
    ...(state.sandboxQueuedSince !== undefined
      ? { sandboxQueuedSince: state.sandboxQueuedSince }
      : {}),
  };
}

const NO_WAITS: StepWaits = {
  queuedMs: 0,
  backoffMs: 0,
  pausedMs: 0,
  sandboxMs: 0,
  inModelMs: 0,
  inToolsMs: 0,
};

/** `waits` with `ms` more of `kind`, lying inside the model's time, the tools' or neither. */
export function addWait(
  waits: StepWaits | undefined,
  kind: WaitKind,
  ms: number,
  inside: 'model' | 'tools' | 'step',
): StepWaits {
  const base = waits ?? NO_WAITS;
  return {
    ...base,
    [kind]: base[kind] + ms,
    ...(inside === 'model' ? { inModelMs: base.inModelMs + ms } : {}),
    ...(inside === 'tools' ? { inToolsMs: base.inToolsMs + ms } : {}),
  };
}

/** The sum of a step's waits of every kind. */
export function totalWait(w: Pick<StepWaits, WaitKind>): number {
  return w.queuedMs + w.backoffMs + w.pausedMs + w.sandboxMs;
}

type UpdateStep = (
  agent: string,
  step: number,
  changes: (s: StepItem) => Partial<StepItem> | null,
) => void;

/** Applies one event to the step timing state; every event passes here once. */
export function trackStepTime(m: TimelineModel, e: RunEvent, updateStep: UpdateStep): void {
  const state = m.waitState;
  switch (e.type) {
    case 'step.started':
      // a step starts with nothing running (a call that lost its tool.finished ends here)
      if (state.toolsRunning[e.agent]) state.toolsRunning[e.agent] = 0;
      delete state.callBackoffMs[e.agent];
      return;
    case 'tool.started':
      state.toolsRunning[e.agent] = (state.toolsRunning[e.agent] ?? 0) + 1;
      return;
    case 'tool.finished':
      state.toolsRunning[e.agent] = Math.max(0, (state.toolsRunning[e.agent] ?? 0) - 1);
      return;
    case 'llm.requested':
      if (!state.toolsRunning[e.agent]) delete state.callBackoffMs[e.agent];
      return;
    case 'llm.retried':
      return retried(state, e, updateStep);
    case 'llm.responded':
      // a tool's own call (extract_content): its queue wait lies inside that tool's time;
      // the agent's own call changes the header with its usage (`answeredTime`)
      if (state.toolsRunning[e.agent] && e.queuedMs)
        wait(updateStep, e.agent, e.step, 'queuedMs', e.queuedMs, 'tools');
      return;
    case 'run.resumed':
      if (e.pausedMs > 0) wait(updateStep, e.agent, e.step, 'pausedMs', e.pausedMs, 'step');
      return;
    case 'sandbox.changed':
      return sandboxChanged(m, e, updateStep);
    default:
      return;
  }
}

function wait(
  updateStep: UpdateStep,
  agent: string,
  step: number,
  kind: WaitKind,
  ms: number,
  inside: 'model' | 'tools' | 'step',
): void {
  updateStep(agent, step, (s) =>
    s.isFinished ? null : { waits: addWait(s.waits, kind, ms, inside) },
  );
}

function retried(state: WaitState, e: RunEventOf<'llm.retried'>, updateStep: UpdateStep): void {
  if (!(e.delayMs > 0)) return;
  if (state.toolsRunning[e.agent]) {
    wait(updateStep, e.agent, e.step, 'backoffMs', e.delayMs, 'tools');
    return;
  }
  // inside the call's time only once it answers: held until llm.responded
  state.callBackoffMs[e.agent] = (state.callBackoffMs[e.agent] ?? 0) + e.delayMs;
  wait(updateStep, e.agent, e.step, 'backoffMs', e.delayMs, 'step');
}

/**
 * The agent's own model call answered (no tool of its runs): the step's model time grows
 * by the call's duration, and the call's queue wait and backoff lie inside it. The
 * changes to the step header, merged by the caller into the header's one update.
 */
export function answeredTime(
  state: WaitState,
  e: RunEventOf<'llm.responded'>,
  s: StepItem,
): Partial<StepItem> {
  if (state.toolsRunning[e.agent]) return {};
  const backoff = state.callBackoffMs[e.agent] ?? 0;
  delete state.callBackoffMs[e.agent];
  if (s.isFinished) return {};
  let waits = s.waits;
  if (e.queuedMs) waits = addWait(waits, 'queuedMs', e.queuedMs, 'model');
  // the backoff, counted as the step's when it came, turns out to be inside this call
  if (backoff > 0 && waits) waits = { ...waits, inModelMs: waits.inModelMs + backoff };
  return { modelMs: (s.modelMs ?? 0) + e.durationMs, ...(waits ? { waits } : {}) };
}

function sandboxChanged(
  m: TimelineModel,
  e: RunEventOf<'sandbox.changed'>,
  updateStep: UpdateStep,
): void {
  const state = m.waitState;
  if (e.status === 'queued') {
    state.sandboxQueuedSince ??= e.ts;
    return;
  }
  const since = state.sandboxQueuedSince;
  if (since === undefined) return;
  delete state.sandboxQueuedSince;
  // sandbox events name no agent: the wait is the step's of the agent that acted last
  const agent = m.lastAgent;
  const step = m.current[agent]?.step;
  if (step === undefined || e.ts <= since) return;
  const inside = state.toolsRunning[agent] ? 'tools' : 'step';
  wait(updateStep, agent, step, 'sandboxMs', e.ts - since, inside);
}
