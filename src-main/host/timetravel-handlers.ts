/**
 * The contract's time-travel requests (docs/time-travel.md): fork a run at a step, resume
 * an interrupted run, continue a finished one with a follow-up message, list a run's
 * checkpoints (`runs:delete` is delete-run.ts). A refusal (no such run or step, a flow, a
 * run still going, a workspace that is gone) becomes the typed error the UI shows in place.
 */
import { LineageError, type LineageRequest } from '../runtime/runs/run-lineage';
import type { Runtime } from '../runtime/runtime';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type TimeTravelChannel = 'runs:fork' | 'runs:resume' | 'runs:continue' | 'runs:checkpoints';

export function createTimeTravelHandlers(runtime: Runtime): Pick<Handlers, TimeTravelChannel> {
  const { runs } = runtime;
  const start = async (request: LineageRequest) => {
    // a continuation or resume works in the run's session: not while a typed command runs there
    if (request.kind !== 'fork') {
      const busy = runtime.terminal.agentStartRefusal(request.runId);
      if (busy) throw new HandlerError(busy.code, busy.message);
    }
    try {
      return { runId: (await runs.startFrom(request, { actor: 'ui' })).runId };
    } catch (error) {
      if (error instanceof LineageError) throw new HandlerError(error.code, error.message);
      throw error;
    }
  };
  const known = (runId: string) => {
    if (!runs.get(runId)) throw new HandlerError('not_found', `No run with id ${runId}`);
  };
  return {
    'runs:fork': async (input) => start({ kind: 'fork', ...input }),
    'runs:resume': async ({ runId }) => start({ kind: 'resume', runId }),
    'runs:continue': async (input) => start({ kind: 'continue', ...input }),
    'runs:checkpoints': async ({ runId }) => {
      known(runId);
      return runs.checkpointsOf(runId);
    },
  };
}
