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
