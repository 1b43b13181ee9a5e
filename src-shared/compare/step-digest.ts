/**
 * Folds a run's events into its steps as comparison sees them: per step the messages
 * that entered it, the model's reply, the tool calls with their arguments and results,
 * stuck detections, and the step's tokens and times. Bracketed by a `start` digest
 * (the task, before the first step) and an `end` digest (the outcome). Infrastructure
 * events (deltas, state changes, sandbox, truncation) are left out: they say how the run
 * went, not what the agent did.
 */
import type { RunEvent } from '../events';
import type { StepCall, StepDigest, StepKind } from './types';
import { isToolFailure } from '../run-outcome';

function emptyDigest(
  kind: StepKind,
  step: number,
  agent: string,
  seq: number,
  ts: number,
): StepDigest {
  return {
    kind,
    step,
    agent,
    seq,
    ts,
    messages: [],
    reply: '',
    calls: [],
    stuck: [],
    model: '',
    tokens: { prompt: 0, completion: 0 },
    latencyMs: 0,
    durationMs: null,
    retries: 0,
  };
}

function outcomeLine(event: RunEvent & { type: 'run.finished' }): string {
  let line: string = event.outcome;
  if (event.terminateStatus !== undefined) line += ` (terminate: ${event.terminateStatus})`;
  if (event.error) line += `: ${event.error}`;
  return line;
}

/** Events that are infrastructure, not the agent's behaviour: they never open a digest. */
const IGNORED = new Set<RunEvent['type']>([
  'state.changed',
  'llm.delta',
  'llm.requested',
  'memory.truncated',
  'sandbox.changed',
]);

export function digestSteps(events: readonly RunEvent[]): StepDigest[] {
  const digests: StepDigest[] = [];
  const calls = new Map<string, StepCall>();
  let current = null as StepDigest | null;
  let lastStep = 0;
  let hasEnded = false;
  /** the time of the event being folded: a digest opened by it starts then */
  let now = events[0]?.ts ?? 0;
  /** per agent: the backoff of its call under way, which its durationMs includes */
  const backoff = new Map<string, number>();

  const open = (kind: StepKind, step: number, agent: string, seq: number): StepDigest => {
    current = emptyDigest(kind, step, agent, seq, now);
    digests.push(current);
    return current;
  };
  /** the digest an agent's event belongs to: another agent's work between steps is an interlude */
  const digestFor = (agent: string, seq: number): StepDigest => {
    if (!current) return open('start', 0, agent, seq);
    if (current.agent === agent) return current;
    return open('interlude', lastStep, agent, seq);
  };

  for (const event of events) {
    now = event.ts;
    if (IGNORED.has(event.type)) continue;
    switch (event.type) {
      case 'run.started':
        if (!current) open('start', 0, event.agent, event.seq);
        break;
      case 'step.started':
        lastStep = event.step;
        // (a call that failed after its retries left its backoff behind)
        backoff.delete(event.agent);
        open('step', event.step, event.agent, event.seq);
        break;
      case 'step.finished': {
        const d = digestFor(event.agent, event.seq);
        if (d.kind === 'step' && d.step === event.step) d.durationMs = event.durationMs;
        break;
      }
      case 'memory.appended': {
        const { role, content, imageMimeType } = event.message;
        if (role !== 'user' && role !== 'system') break;
        const text = `${content ?? ''}${imageMimeType ? `${content ? '\n' : ''}[image ${imageMimeType}]` : ''}`;
        digestFor(event.agent, event.seq).messages.push({ role, text });
        break;
      }
      case 'llm.responded': {
        const d = digestFor(event.agent, event.seq);
        if (event.content) d.reply = d.reply ? `${d.reply}\n\n${event.content}` : event.content;
        d.model = event.model;
        d.tokens = {
          prompt: d.tokens.prompt + event.usage.prompt,
          completion: d.tokens.completion + event.usage.completion,
        };
        // the model's own time: a wait for a slot or between attempts is no latency of it
        const waited = (event.queuedMs ?? 0) + (backoff.get(event.agent) ?? 0);
        backoff.delete(event.agent);
        d.latencyMs += Math.max(0, event.durationMs - waited);
        break;
      }
      case 'llm.retried':
        digestFor(event.agent, event.seq).retries += 1;
        backoff.set(event.agent, (backoff.get(event.agent) ?? 0) + event.delayMs);
        break;
      case 'tool.started': {
        const call: StepCall = {
          name: event.name,
          args: event.args,
          status: 'running',
          output: '',
          durationMs: 0,
        };
        calls.set(event.toolCallId, call);
        digestFor(event.agent, event.seq).calls.push(call);
        break;
      }
      case 'tool.finished': {
        let call = calls.get(event.toolCallId);
        if (!call) {
          // a finish without its start (a damaged history): still show the result
          call = { name: event.name, args: null, status: 'running', output: '', durationMs: 0 };
          digestFor(event.agent, event.seq).calls.push(call);
        }
        calls.delete(event.toolCallId);
        // Histories written before issue 25 have `ok` true for a non-zero exit: judged
        // alike, an old golden run and a new run of the same calls stay equivalent.
        call.status = event.ok && !isToolFailure(event) ? 'ok' : 'error';
        call.output = event.output;
        call.durationMs = event.durationMs;
        if (event.error !== undefined) call.error = event.error;
        if (event.exitCode !== undefined) call.exitCode = event.exitCode;
        break;
      }
      case 'stuck.detected':
        digestFor(event.agent, event.seq).stuck.push(event.kind);
        break;
      case 'plan.updated': {
        const lines = event.steps.map((s) => `[${s.status}] ${s.text}`);
        const d = current ?? open('start', 0, '', event.seq);
        d.messages.push({ role: 'plan', text: [event.title, ...lines].join('\n') });
        break;
      }
      case 'human.requested':
      case 'human.answered': {
        const d = current ?? open('start', 0, '', event.seq);
        d.messages.push(
          event.type === 'human.requested'
            ? { role: 'question', text: event.question }
            : { role: 'answer', text: event.answer },
        );
        break;
      }
      case 'run.finished': {
        const end = open('end', event.steps, current?.agent ?? '', event.seq);
        end.outcome = outcomeLine(event);
        hasEnded = true;
        break;
      }
    }
  }
  if (!hasEnded && digests.length > 0) {
    const last = events.at(-1);
    const end = open('end', lastStep, digests.at(-1)?.agent ?? '', (last?.seq ?? 0) + 1);
    end.outcome = 'did not finish';
  }
  return digests;
}
