/**
 * A gateway replay's divergence (docs/gateway.md) as the timeline says it: the agent's
 * call differed from the recording, and what happened next (a warning when the call went
 * to the model, an error when the agent got one).
 */
import type { RunEventOf } from '@shared/events';
import type { MarkerItem } from './types';

export function replayMarker(e: RunEventOf<'replay.diverged'>): [string, MarkerItem['tone']] {
  const then =
    e.then === 'live' ? 'The call went to the model (live from here).' : 'The agent got an error.';
  return [
    `Replay of ${e.replayOf} diverged at step ${e.step}: the recording had ${e.expected}; the agent sent ${e.received}. ${then}`,
    e.then === 'fail' ? 'error' : 'warn',
  ];
}
