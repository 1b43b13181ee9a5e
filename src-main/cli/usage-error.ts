import type { HelpTopic } from './usage';

/** Bad usage or bad config: the CLI prints the one-line reason and exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT = {
  finished: 0,
  error: 1,
  usage: 2,
  maxSteps: 3,
  interrupted: 130,
} as const;

/**
 * `-h` / `--help` was given: the CLI prints the help of `topic` to stdout and exits 0,
 * whatever else the command line holds (a command may be deep in its parsing by then).
 */
export class HelpRequested extends Error {
  constructor(readonly topic: HelpTopic) {
    super(`help for ${topic}`);
    this.name = 'HelpRequested';
  }
}
