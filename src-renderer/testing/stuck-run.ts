/**
 * A long run of an agent that loops on a few shell commands (issue 25 item 2: 300 bash
 * turns, `max_messages = 20`): most replies repeat one from four steps back (stamped
 * `duplicate`), each repeat is followed by `stuck.detected` (twice when both the content
 * and the tool calls repeat) and a nudge, memory is cut to its window every step, every
 * 7th command exits 1 and every 13th model call is retried. Every count of the health
 * line is non-zero and grows all along the run, so any part of the history folded twice
 * (or skipped) shows in the totals.
 */
import type { RunEvent } from '@shared/events';
import { RunScript, type ScriptedStep } from './run-script';

export interface StuckRunOptions {
  startTs?: number;
  /** the memory window (`max_messages`) */
  maxMessages?: number;
  /** leave the run without `run.finished`: a run still going, or interrupted */
  isUnfinished?: boolean;
}

const COMMANDS = ['ls -la', 'cat README.md', 'npm test', 'git status'];
const NUDGE = 'You seem to be repeating yourself. Try a different approach.';

/** The run in chunks of `chunkSteps` steps, for histories too long to hold at once. */
export function stuckRunInChunks(
  runId: string,
  steps: number,
  options: StuckRunOptions,
  sink: (events: RunEvent[]) => void,
  chunkSteps = 500,
): void {
  const script = new RunScript(runId, 'manus', {
    maxSteps: steps,
    ...(options.startTs !== undefined ? { startTs: options.startTs } : {}),
  }).start('Make the test suite pass.');
  const window = options.maxMessages ?? 20;
  let firstKept = 0;
  let isNudged = false;
  /** each step's reply, by memory index: what a repeat repeats */
  const replies: number[] = [];
  for (let i = 1; i <= steps; i++) {
    const command = COMMANDS[i % COMMANDS.length]!;
    // From the second round on, a reply repeats the one four steps back, except every
    // 5th step, which tries something new in its wording (its tool call still repeats).
    const isRepeat = i > COMMANDS.length;
    const isFreshText = i % 5 === 0;
    const step: ScriptedStep = {
      content:
        isRepeat && !isFreshText ? `Let me run ${command}.` : `Step ${i}: let me run ${command}.`,
      calls: [
        {
          name: 'bash',
          args: { command },
          output: `output of ${command}`,
          ...(i % 7 === 0 ? { error: 'exit status 1', exitCode: 1 } : { exitCode: 0 }),
        },
      ],
      ...(isNudged ? { prompt: NUDGE } : {}),
      ...(i % 13 === 0 ? { retryDelays: i % 39 === 0 ? [250, 500] : [250] } : {}),
      ...(isRepeat ? { duplicate: isFreshText ? ('tool_calls' as const) : ('both' as const) } : {}),
    };
    replies.push(script.addStep(step));
    isNudged = false;
    if (isRepeat) {
      const earlier = replies[replies.length - 1 - COMMANDS.length]!;
      if (!isFreshText) script.stuck('content', [earlier]);
      script.stuck('tool_calls', [earlier]);
      isNudged = true;
    }
    if (script.nextMemoryIndex - firstKept > window) {
      const keepFrom = script.nextMemoryIndex - window;
      const dropped = Array.from({ length: keepFrom - firstKept }, (_, k) => firstKept + k);
      script.truncate(dropped, window);
      firstKept = keepFrom;
    }
    script.endStep();
    if (i % chunkSteps === 0) sink(script.events.splice(0));
  }
  if (!options.isUnfinished) script.finish('max_steps');
  sink(script.events.splice(0));
}

export function stuckRun(runId: string, steps: number, options: StuckRunOptions = {}): RunEvent[] {
  const events: RunEvent[] = [];
  stuckRunInChunks(runId, steps, options, (chunk) => events.push(...chunk));
  return events;
}
