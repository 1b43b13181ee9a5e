/**
 * The contract's requests of the run's terminal (issue 32 item 4): `sandbox:exec` runs a
 * typed command in the run's session container (RunTerminal: refused while the agent
 * runs, never on the host) and `sandbox:commands` lists what was typed.
 */
import type { Runtime } from '../runtime/runtime';
import { TerminalError } from '../runtime/terminal/run-terminal';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type TerminalChannel = 'sandbox:exec' | 'sandbox:commands';

export function createTerminalHandlers(runtime: Runtime): Pick<Handlers, TerminalChannel> {
  const typed = async <T>(action: () => Promise<T> | T): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (error instanceof TerminalError) throw new HandlerError(error.code, error.message);
      throw error;
    }
  };
  return {
    'sandbox:exec': async ({ runId, command }) =>
      typed(() => runtime.terminal.runUserCommand(runId, command)),
    'sandbox:commands': async ({ runId }) =>
      typed(() => ({ commands: runtime.terminal.commands(runId) })),
  };
}
