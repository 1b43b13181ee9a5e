/**
 * A debugger request that cannot be carried out as asked: the run is not paused, the
 * edit does not apply where it is paused, the call or message does not exist, the
 * breakpoint does not parse. The code is the contract's error code, so hosts pass it on.
 */
export type DebugErrorCode = 'invalid_input' | 'conflict' | 'not_found';

export class DebugError extends Error {
  constructor(
    readonly code: DebugErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DebugError';
  }
}
