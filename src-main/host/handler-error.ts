import type { IpcError } from '@shared/ipc';

/** An error a handler throws on purpose, with a code the UI can act on. */
export class HandlerError extends Error {
  constructor(
    readonly code: IpcError['code'],
    message: string,
    readonly issues?: IpcError['issues'],
  ) {
    super(message);
    this.name = 'HandlerError';
  }
}
