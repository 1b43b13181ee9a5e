/**
 * The model gateway (docs/gateway.md): a replayed external agent's request differed from
 * the recording. Part of the RunEvent contract (../events.ts, docs/events.md).
 */
export interface ReplayDivergedEvent {
  type: 'replay.diverged';
  agent: string;
  step: number;
  /** the run whose recording was replayed */
  replayOf: string;
  /** what the recording had and what the agent sent (one line each) */
  expected: string;
  received: string;
  /** `live`: the call went to the model; `fail`: the agent got an error */
  then: 'live' | 'fail';
}
