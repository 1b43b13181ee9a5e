import { getEventListeners } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceWatchdog } from './workspace-watchdog';

describe('WorkspaceWatchdog', () => {
  // Issue 12 item 10: one listener per sandbox call stayed on the run's signal, so every
  // run of 11+ steps printed MaxListenersExceededWarning (and kept them all alive).
  it('leaves no listener on the run signal after each call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-watchdog-'));
    const run = new AbortController();
    for (let i = 0; i < 25; i++) {
      const watchdog = new WorkspaceWatchdog(dir, { workspace_limit: '1g' }, run.signal);
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
      watchdog.stop();
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('still passes the run stop on while a call is going', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-watchdog-'));
    const run = new AbortController();
    const watchdog = new WorkspaceWatchdog(dir, { workspace_limit: '1g' }, run.signal);
    run.abort(new Error('stopped'));
    expect(watchdog.signal.aborted).toBe(true);
    expect((watchdog.signal.reason as Error).message).toBe('stopped');
    watchdog.stop();
  });
});
