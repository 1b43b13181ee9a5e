/**
 * A run that may not start now, and why (the user can act on it): its session's sandbox
 * is held by a command typed into a run's terminal (issue 32: the terminal and an agent
 * never use one sandbox at once). Thrown by `RunManager.start` before anything of the run
 * exists: nothing is recorded.
 */
export class RunStartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunStartRefused';
  }
}

/** Why a run may not start in the session now, or null when it may. */
export type SessionStartGate = (sessionId: string) => string | null;
