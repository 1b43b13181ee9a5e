/**
 * The run's error as the header and the timeline's last row show it. A run ended by a
 * sandbox that cannot start carries the sandbox's message (its cause and fix) and then
 * why the run ended (tools/sandbox/sandbox-outage.ts); the banner above the timeline
 * says the first part already, so these name it instead of repeating it
 * (docs/run-outcome.md, "Repeats said once"). The inspector keeps the error in full.
 */
import type { SandboxFailure } from './types';

export const SANDBOX_CAUSE_POINTER =
  'The sandbox could not start (the cause and the fix are in the banner above the timeline).';

/** The sandbox failure's message when the run's error starts with it and the banner shows. */
export function sandboxCause(
  error: string,
  failure: Pick<SandboxFailure, 'error' | 'isResolved'> | undefined,
): string | undefined {
  if (!failure || failure.isResolved || !failure.error) return undefined;
  return error.startsWith(failure.error) ? failure.error : undefined;
}

export function runErrorText(error: string, cause: string | undefined): string {
  if (!cause || !error.startsWith(cause)) return error;
  const rest = error.slice(cause.length).trim();
  return rest ? `${SANDBOX_CAUSE_POINTER} ${rest}` : SANDBOX_CAUSE_POINTER;
}
