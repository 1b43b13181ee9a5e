/**
 * Follows a started run at the terminal until it ends, for `workbench run` and for the
 * runs it continues (`runs fork`, `runs resume`): the orphan sweep, Ctrl-C, the answer on
 * stdout and the exit code. One place, so a fork exits like a run.
 *
 * stdout gets the answer only when the run finished: a stopped, failed or cut-off run's
 * last words are not an answer (`run TASK > answer.txt` must not keep a partial reply),
 * and its verdict is already on stderr (the ■ line) and in the exit code, so a terminal
 * shows an error once.
 */
import { verdictExitCode, type VerdictKind } from '@shared/run-outcome';
import type { RunHandle } from '../runtime/runs/run-manager';
import type { Runtime } from '../runtime/runtime';
import { guardRunExit } from './run-exit-guard';
import type { RunPrinter } from './run-printer';
import { terminalSafe } from './terminal-text';
import { EXIT } from './usage-error';

export async function followRun(
  runtime: Runtime,
  handle: RunHandle,
  printer: RunPrinter,
  options: { isJsonl: boolean; onEnd?: () => void },
): Promise<number> {
  // An exit without run.finished is never a success (issue 12 item 3).
  const exitGuard = guardRunExit(runtime.runs, handle.runId);
  // Containers a killed CLI left behind are swept on every start (reliability.md S9), but
  // only once the run has said its first word: the Docker client is not loaded before it
  // (issue 16 item 7), and a run that never uses the sandbox sweeps all the same.
  const stopSweepHook = runtime.runs.onEvent(() => {
    stopSweepHook();
    void runtime.services.sandboxes.startSweep();
  });
  let interrupted = false;
  // The first Ctrl-C stops the run cleanly (it still ends with run.finished, the sandbox
  // is removed, the history is kept); the handler is `once`, so a second one quits at once.
  const onSignal = () => {
    interrupted = true;
    process.stderr.write('workbench: stopping the run (Ctrl-C again to quit at once)\n');
    runtime.runs.stop(handle.runId);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await handle.done;
    await runtime.dispose();
    printer.end();
    if (exitGuard.hasStalled) return EXIT.error;
    const answer =
      printer.verdict !== undefined && isFinished(printer.verdict.kind)
        ? printer.finalAnswer
        : undefined;
    if (!options.isJsonl && answer) {
      // A redirected answer is kept byte for byte; on a terminal escapes are shown, not run.
      process.stdout.write(`${process.stdout.isTTY ? terminalSafe(answer) : answer}\n`);
    }
    if (interrupted) return EXIT.interrupted;
    return verdictExitCode(printer.verdict?.kind ?? 'error');
  } finally {
    exitGuard.dispose();
    options.onEnd?.();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The run finished (the agent ended it; it may have reported failure): it has an answer. */
function isFinished(kind: VerdictKind): boolean {
  return kind === 'finished' || kind === 'finished_with_errors' || kind === 'agent_failed';
}
