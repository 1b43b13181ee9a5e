import { describe, expect, it } from 'vitest';
import { runErrorText, sandboxCause, SANDBOX_CAUSE_POINTER } from './run-error-text';

const CAUSE = 'Docker is unavailable, so the sandbox tools cannot run. Start Docker.';
const WHY = 'The run ends here: every tool of this agent needs the sandbox.';
const ENDED = `${CAUSE} ${WHY}`;

describe("the run's error where the sandbox banner shows", () => {
  it('points at the banner instead of repeating the sandbox failure, and keeps why the run ended', () => {
    const cause = sandboxCause(ENDED, { error: CAUSE, isResolved: false });
    expect(cause).toBe(CAUSE);
    expect(runErrorText(ENDED, cause)).toBe(`${SANDBOX_CAUSE_POINTER} ${WHY}`);
  });

  it('is shown as it is when there is no banner, or the error is about something else', () => {
    expect(sandboxCause(ENDED, undefined)).toBeUndefined();
    // a sandbox that started after all has no banner
    expect(sandboxCause(ENDED, { error: CAUSE, isResolved: true })).toBeUndefined();
    expect(sandboxCause('Rate limited', { error: CAUSE, isResolved: false })).toBeUndefined();
    expect(runErrorText(ENDED, undefined)).toBe(ENDED);
  });
});
