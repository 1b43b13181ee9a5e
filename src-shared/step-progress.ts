/**
 * How far an agent got in a run's history: the last step that finished, or that appended
 * a message before the history ends. A step the app was killed in before it did anything
 * (paused before its model call) does not count: a resumed run runs it again instead of
 * counting it as done (issue 24 item 10).
 */
import type { RunEvent } from './events';

/** The last step of `agent` that finished or appended a message, up to event `uptoSeq`. */
export function lastActiveStep(
  events: readonly RunEvent[],
  agent: string,
  uptoSeq = Number.POSITIVE_INFINITY,
): number {
  let step = 0;
  let openStep = 0;
  for (const event of events) {
    if (event.seq > uptoSeq) break;
    if (!('agent' in event) || event.agent !== agent) continue;
    if (event.type === 'step.started') openStep = event.step;
    else if (event.type === 'step.finished') step = event.step;
    else if (event.type === 'memory.appended') step = Math.max(step, openStep);
  }
  return step;
}
