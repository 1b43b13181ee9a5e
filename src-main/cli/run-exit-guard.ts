/**
 * `workbench run` must never end as if all went well when its run did not end (issue 12
 * item 3: 4 of 119 fork-bomb runs exited 0 mid-run with no `run.finished`). Node exits
 * when nothing is left that can wake the process; a run waiting on a promise that only
 * unref'd timers could settle looked, to Node, like a finished program.
 *
 * The guard watches for the run's `run.finished`. If the process is about to exit
 * without it (`beforeExit`), the run has stalled: that is said on stderr and the run is
 * stopped, which lets an abortable wait end and `run.finished` be written. If even that
 * does not bring it, the process exits with an error, never 0.
 */
import type { RunEvent } from '@shared/events';
import { EXIT } from './usage-error';

export interface RunExitGuard {
  /** true once the run was found stalled; the command must then exit with an error */
  readonly hasStalled: boolean;
  dispose(): void;
}

interface GuardedRuns {
  onEvent(listener: (event: RunEvent) => void): () => void;
  stop(runId: string): boolean;
}

export function guardRunExit(
  runs: GuardedRuns,
  runId: string,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): RunExitGuard {
  let isFinished = false;
  let hasStalled = false;
  const stopListening = runs.onEvent((event) => {
    if (event.runId === runId && event.type === 'run.finished') isFinished = true;
  });
  const onBeforeExit = () => {
    if (isFinished || hasStalled) return;
    hasStalled = true;
    write(
      'workbench: the run stalled: it was waiting for something that can no longer happen ' +
        '(a bug; please report it with the run id). Stopping it.',
    );
    // Aborting wakes every abortable wait; the run then ends with run.finished.
    runs.stop(runId);
  };
  // The last word: whatever happens, an exit without run.finished is not a success.
  const onExit = (code: number) => {
    if (isFinished) return;
    if (hasStalled) {
      write('workbench: the run did not end after the stop; its history ends without run.finished');
    }
    if (code === 0) process.exitCode = EXIT.error;
  };
  process.on('beforeExit', onBeforeExit);
  process.on('exit', onExit);
  function dispose(): void {
    stopListening();
    process.off('beforeExit', onBeforeExit);
    process.off('exit', onExit);
  }
  return {
    get hasStalled() {
      return hasStalled;
    },
    dispose,
  };
}
