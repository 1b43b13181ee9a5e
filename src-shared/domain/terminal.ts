/**
 * The run's terminal (issue 32 item 4): commands the user typed into the run's session
 * sandbox while the run was paused or after it finished. They are user actions, not agent
 * steps: each is a `user.command` record in the run's user-actions log (docs/events.md
 * "User actions"), beside the run's history, never in it (a history is closed at
 * `run.finished`, which stays its last event).
 */
export interface UserCommandRecord {
  type: 'user.command';
  runId: string;
  /** position in the run's user-actions log, from 1 */
  seq: number;
  /** when the command started (ms since the epoch) */
  ts: number;
  command: string;
  /** stdout then stderr, capped like a tool's output */
  output: string;
  /** null: no exit code (killed at the timeout, container gone) */
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  /** the run was paused (`paused`) or over (`finished`) when the command ran */
  runState: 'paused' | 'finished';
  /** the container it ran in */
  containerId: string;
}

export interface TerminalCommandInput {
  runId: string;
  command: string;
}

export interface TerminalHistoryView {
  commands: UserCommandRecord[];
}
