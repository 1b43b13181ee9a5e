/**
 * The contract's debugger requests (`debug:*`): each finds the live run's debugger and
 * turns a refusal (not paused, an edit that does not apply there, an unknown call) into
 * the typed error the UI shows in place. Requests made through a host come from the UI.
 */
import { DebugError } from '../runtime/debug/debug-error';
import type { RunDebugger } from '../runtime/debug/run-debugger';
import type { Runtime } from '../runtime/runtime';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type DebugChannel = Extract<keyof Handlers, `debug:${string}`>;

export function createDebugHandlers(runtime: Runtime): Pick<Handlers, DebugChannel> {
  const { runs } = runtime;
  /** The run's debugger, or why there is none. */
  const debuggerOf = (runId: string): RunDebugger => {
    const debug = runs.debugger(runId);
    if (debug) return debug;
    if (runs.get(runId))
      throw new HandlerError('conflict', `Run ${runId} has ended: there is nothing to debug.`);
    throw new HandlerError('not_found', `No run with id ${runId}`);
  };
  const act = <T>(runId: string, action: (debug: RunDebugger) => T): Promise<T> => {
    const debug = debuggerOf(runId);
    try {
      return Promise.resolve(action(debug));
    } catch (error) {
      if (error instanceof DebugError) throw new HandlerError(error.code, error.message);
      throw error;
    }
  };
  /** Resuming, stepping or editing (which may resume) waits for no typed command: it is refused. */
  const goOn = async <T>(runId: string, action: (debug: RunDebugger) => T): Promise<T> => {
    const busy = runtime.terminal.agentStartRefusal(runId);
    if (busy) {
      debuggerOf(runId); // a run with no debugger says so first
      throw new HandlerError(busy.code, busy.message);
    }
    return act(runId, action);
  };
  return {
    'debug:pause': ({ runId }) => act(runId, (d) => d.pause()),
    'debug:resume': ({ runId }) => goOn(runId, (d) => d.resume('continue', 'ui')),
    'debug:step': ({ runId, scope }) => goOn(runId, (d) => d.resume(scope, 'ui')),
    'debug:set-breakpoint': ({ runId, spec }) => act(runId, (d) => d.setBreakpoint(spec, 'ui')),
    'debug:clear-breakpoint': ({ runId, id }) =>
      act(runId, (d) => {
        d.clearBreakpoint(id, 'ui');
        return { cleared: true as const };
      }),
    'debug:set-approval': ({ runId, tools }) =>
      act(runId, (d) => ({ approvals: d.setApprovals(tools, 'ui') })),
    'debug:edit': ({ runId, edit }) => goOn(runId, (d) => d.edit(edit, 'ui')),
  };
}
