/**
 * Child process for run-exit-guard.test.ts: a run whose agent waits on a promise nothing
 * will settle (only an unref'd timer is pending), supervised as `workbench run` does it.
 * Mode `abortable`: the wait ends when the run is stopped; `deaf`: it never ends;
 * `normal`: the run finishes.
 */
import { RunManager } from '../../runtime/runs/run-manager';
import { raceAbort } from '../../runtime/util/abort';
import { guardRunExit } from '../run-exit-guard';

const mode = process.argv[2] ?? 'normal';
const never = new Promise<void>((resolve) => setTimeout(resolve, 600_000).unref());

const runs = new RunManager(async () => ({
  agentName: 'stub',
  model: 'stub-model',
  maxSteps: 1,
  async execute(_task, signal) {
    if (mode === 'abortable') await raceAbort(never, signal);
    else if (mode === 'deaf') await never;
    return {
      outcome: 'finished',
      state: 'FINISHED',
      steps: 1,
      usage: { prompt: 0, completion: 0 },
      stepResults: [],
    };
  },
}));
runs.onEvent((event) => process.stdout.write(`${event.type}\n`));
const handle = runs.start({ task: 'wait' });
const guard = guardRunExit(runs, handle.runId);
await handle.done.catch(() => undefined);
process.exitCode = guard.hasStalled ? 1 : 0;
guard.dispose();
