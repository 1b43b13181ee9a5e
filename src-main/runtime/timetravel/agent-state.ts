/**
 * An agent's memory and loop state at a step boundary, rebuilt from the run's own event
 * history: the history already holds every message appended (`memory.appended`, with its
 * stable index), every window cut (`memory.truncated`), every edit made at a pause
 * (`run.edited`) and every stuck hit, so a checkpoint needs no copy of the memory on disk.
 * `agent-state.test.ts` proves it: at every step of a live run the rebuilt window equals
 * what the agent had.
 *
 * Images come back when the history kept them (`message.image.ref`, issue 17) and the
 * caller gives `loadImage`: a fork's first request then shows the model the screenshot
 * the original saw (a visual agent trims all but its newest few again before it runs).
 * Older histories kept only the type: such a message keeps its text. Not rebuilt, on
 * purpose: the tool-call agent's reprompt streaks (a fork starts them at zero, as every
 * run does).
 */
import type { Message, MessageImage } from '@shared/domain/message';
import type { EventMessage, RunEvent } from '@shared/events';
import type { MemoryEntry } from '../loop/memory';
import type { ResumePoint } from '../loop/base-agent';
import { STUCK_NUDGE } from '../loop/stuck-detector';
import { lastActiveStep } from '@shared/step-progress';

export interface AgentStateAt {
  agent: string;
  /** the step boundary: the `step.finished` of this step (or the last event, when interrupted) */
  step: number;
  /** seq of the event the state is taken at */
  seq: number;
  entries: MemoryEntry[];
  pinnedIndex: number | null;
  nextIndex: number;
  pendingNudge?: string;
  /** tool calls without an answer (only at an interruption, never at a step boundary) */
  unanswered: { id: string; name: string }[];
}

/** Where `step` of `agent` ended in the history, or undefined when it never finished. */
export function stepBoundarySeq(
  events: readonly RunEvent[],
  agent: string,
  step: number,
): number | undefined {
  return events.find((e) => e.type === 'step.finished' && e.agent === agent && e.step === step)
    ?.seq;
}

/** The steps of `agent` that finished, in order. */
export function finishedSteps(events: readonly RunEvent[], agent: string): number[] {
  return events.flatMap((e) => (e.type === 'step.finished' && e.agent === agent ? [e.step] : []));
}

/**
 * The agent's state right after the event `seq` (a step boundary, or the last event of
 * an interrupted run). `step` is the last step that finished or appended a message
 * (step-progress.ts): a step the kill cut off before it did anything runs again.
 */
export function rebuildAgentState(
  events: readonly RunEvent[],
  agent: string,
  seq: number,
  loadImage?: (ref: string) => MessageImage | undefined,
): AgentStateAt {
  const window = new Map<number, MemoryEntry>();
  let nextIndex = 0;
  let pinnedIndex: number | null = null;
  const step = lastActiveStep(events, agent, seq);
  let nudgeStep = -1;
  let isFirst = true;
  for (const event of events) {
    if (event.seq > seq) break;
    if (!('agent' in event) || event.agent !== agent) continue;
    switch (event.type) {
      case 'memory.appended': {
        const message = fromEventMessage(event.message, loadImage);
        const followsTurn = message.role === 'tool' || event.message.imageMimeType !== undefined;
        window.set(event.index, { index: event.index, message, followsTurn });
        nextIndex = Math.max(nextIndex, event.index + 1);
        // The run's task is the agent's first message (pinned: never cut from the window).
        if (isFirst && message.role === 'user') pinnedIndex = event.index;
        isFirst = false;
        break;
      }
      case 'memory.truncated':
        for (const index of event.dropped) window.delete(index);
        break;
      case 'run.edited':
        if (event.edit.kind === 'edit_message') {
          const entry = window.get(event.edit.index);
          if (entry) {
            const message = { ...entry.message, content: event.edit.after };
            window.set(entry.index, { ...entry, message });
          }
        }
        break;
      case 'stuck.detected':
        nudgeStep = event.step;
        break;
      default:
        break;
    }
  }
  const entries = [...window.values()].sort((a, b) => a.index - b.index);
  return {
    agent,
    step,
    seq,
    entries,
    pinnedIndex,
    nextIndex,
    // A stuck hit leaves its nudge for the step after it, once.
    ...(nudgeStep === step && step > 0 ? { pendingNudge: STUCK_NUDGE } : {}),
    unanswered: unansweredCalls(entries),
  };
}

/** The loop's resume point from a rebuilt state, plus messages to append after it. */
export function toResumePoint(state: AgentStateAt, append: Message[] = []): ResumePoint {
  return {
    entries: state.entries,
    pinnedIndex: state.pinnedIndex,
    nextIndex: state.nextIndex,
    step: state.step,
    ...(state.pendingNudge ? { pendingNudge: state.pendingNudge } : {}),
    ...(append.length > 0 ? { append } : {}),
  };
}

function unansweredCalls(entries: readonly MemoryEntry[]): { id: string; name: string }[] {
  const answered = new Set(
    entries.flatMap((e) => (e.message.role === 'tool' ? [e.message.tool_call_id ?? ''] : [])),
  );
  return entries.flatMap((e) =>
    (e.message.tool_calls ?? [])
      .filter((call) => !answered.has(call.id))
      .map((call) => ({ id: call.id, name: call.function.name })),
  );
}

function fromEventMessage(
  message: EventMessage,
  loadImage?: (ref: string) => MessageImage | undefined,
): Message {
  const out: Message = { role: message.role, content: message.content };
  const ref = message.image?.ref;
  const image = ref !== undefined ? loadImage?.(ref) : undefined;
  if (image) out.image = image;
  if (message.tool_calls && message.tool_calls.length > 0) out.tool_calls = message.tool_calls;
  if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) out.name = message.name;
  return out;
}
