/**
 * Replay and fork of an external agent's run (docs/gateway.md, "Replay and fork").
 *
 * `--replay RUN`: the calls of the first run the gateway opens are answered with RUN's
 * recorded replies, in order, without calling the model. Call k is compared with step k
 * of the recording by the messages new in it (what the agent added since its previous
 * call: its prompt, the results of its tools); the first difference is the divergence
 * point: recorded as `replay.diverged`, then the call goes live or fails (`--on-divergence`).
 *
 * A fork at step N replays steps 1..N-1 and goes live from N, or answers N with an
 * edited reply once and goes live after it.
 */
import type { Message, ToolCall } from '@shared/domain/message';
import type { RunEvent } from '@shared/events';
import type { ChatReply } from './chat-reply';
import type { ExternalRun } from './external-run';
import { messageKey } from './wire-messages';

export interface RecordedStep {
  step: number;
  /** the messages new in the call, as the run recorded them */
  fresh: Message[];
  /** the reply the agent got (edits at the pause before tools applied) */
  reply: ChatReply;
}

export type ReplayAnswer =
  { kind: 'reply'; reply: ChatReply } | { kind: 'live' } | { kind: 'fail'; message: string };

export interface ReplayOptions {
  sourceRunId: string;
  /** after a divergence: send the call to the model, or answer it with an error */
  onDivergence: 'live' | 'fail';
  /** a fork: steps from this one on are live (default: none, the whole run is replayed) */
  liveFrom?: number;
  /** a fork's reply at `liveFrom` instead of the model's */
  replyAt?: ChatReply;
  /** where a divergence is said (the CLI's stderr) */
  report?: (message: string) => void;
}

/** The steps of a recorded external run, from its events. */
export function recordedSteps(events: readonly RunEvent[]): RecordedStep[] {
  const steps: RecordedStep[] = [];
  let fresh: Message[] = [];
  let current: RecordedStep | undefined;
  for (const event of events) {
    switch (event.type) {
      case 'memory.appended':
        if (event.message.role !== 'assistant') {
          fresh.push({
            role: event.message.role,
            content: event.message.content,
            ...(event.message.tool_calls ? { tool_calls: event.message.tool_calls } : {}),
            ...(event.message.tool_call_id ? { tool_call_id: event.message.tool_call_id } : {}),
          });
        }
        break;
      case 'llm.requested':
        if (event.system !== undefined) fresh.unshift({ role: 'system', content: event.system });
        current = { step: event.step, fresh, reply: emptyReply(event.model) };
        fresh = [];
        break;
      case 'llm.responded':
        if (current?.step === event.step) {
          current.reply = {
            model: event.model,
            content: event.content,
            toolCalls: event.toolCalls,
            finishReason: event.finishReason,
            usage: event.usage,
          };
          steps.push(current);
        }
        break;
      case 'run.edited':
        if (current?.step === event.step) current.reply = withEdit(current.reply, event.edit);
        break;
      default:
        break;
    }
  }
  return steps;
}

export class ReplayPlan {
  private target: ExternalRun | null = null;
  private hasDiverged = false;

  constructor(
    private readonly steps: readonly RecordedStep[],
    private readonly options: ReplayOptions,
  ) {}

  /** how call `step` of `run` is answered (only the first run opened is replayed) */
  answer(run: ExternalRun, step: number, fresh: readonly Message[]): ReplayAnswer {
    this.target ??= run;
    if (run !== this.target) return { kind: 'live' };
    const { liveFrom, replyAt } = this.options;
    if (liveFrom !== undefined && step >= liveFrom) {
      return step === liveFrom && replyAt ? { kind: 'reply', reply: replyAt } : { kind: 'live' };
    }
    if (this.hasDiverged) return this.afterDivergence();
    const recorded = this.steps[step - 1];
    const difference = recorded
      ? differenceOf(recorded.fresh, fresh)
      : {
          expected: `the recording ends after step ${this.steps.length}`,
          received: `a call at step ${step}`,
        };
    if (!difference) return { kind: 'reply', reply: { ...recorded!.reply } };
    this.hasDiverged = true;
    const then = this.options.onDivergence;
    run.record({
      type: 'replay.diverged',
      agent: run.agent,
      step,
      replayOf: this.options.sourceRunId,
      ...difference,
      then,
    });
    this.options.report?.(
      `replay of ${this.options.sourceRunId} diverged at step ${step}: expected ${difference.expected}; got ${difference.received} (${then === 'live' ? 'going live' : 'failing the call'})`,
    );
    return this.afterDivergence(step);
  }

  private afterDivergence(step?: number): ReplayAnswer {
    if (this.options.onDivergence === 'live') return { kind: 'live' };
    return {
      kind: 'fail',
      message: `Agent Workbench replay of run ${this.options.sourceRunId}: the request differs from the recording${step ? ` at step ${step}` : ''} (see the run's replay.diverged event); the gateway was started with --on-divergence fail.`,
    };
  }
}

function differenceOf(
  expected: readonly Message[],
  received: readonly Message[],
): { expected: string; received: string } | undefined {
  const count = Math.max(expected.length, received.length);
  for (let i = 0; i < count; i++) {
    const a = expected[i];
    const b = received[i];
    if (a && b && messageKey(a) === messageKey(b)) continue;
    return { expected: describe(a), received: describe(b) };
  }
  return undefined;
}

function describe(m: Message | undefined): string {
  if (!m) return 'no further message';
  const text = (m.content ?? '').replace(/\s+/g, ' ').slice(0, 120);
  const calls = (m.tool_calls ?? []).map((c) => c.function.name).join(', ');
  return `${m.role} message "${text}"${calls ? ` calling ${calls}` : ''}${m.tool_call_id ? ` (result of ${m.tool_call_id})` : ''}`;
}

function emptyReply(model: string): ChatReply {
  return { model, content: null, toolCalls: [], finishReason: 'stop' };
}

/** The reply as the agent got it after an edit at the pause before its tool calls. */
function withEdit(
  reply: ChatReply,
  edit: Extract<RunEvent, { type: 'run.edited' }>['edit'],
): ChatReply {
  let calls: ToolCall[] = reply.toolCalls;
  if (edit.kind === 'edit_call') {
    calls = calls.map((c) =>
      c.id === edit.toolCallId ? { ...c, function: { ...c.function, arguments: edit.after } } : c,
    );
  } else if (edit.kind === 'skip_call') {
    calls = calls.filter((c) => c.id !== edit.toolCallId);
  } else if (edit.kind === 'add_call') {
    calls = [
      ...calls,
      {
        id: edit.toolCallId,
        type: 'function',
        function: { name: edit.name, arguments: edit.arguments },
      },
    ];
  } else return reply;
  const finishReason =
    calls.length > 0
      ? 'tool_calls'
      : reply.finishReason === 'tool_calls'
        ? 'stop'
        : reply.finishReason;
  return { ...reply, toolCalls: calls, finishReason };
}
