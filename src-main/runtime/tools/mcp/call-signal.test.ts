import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withCallSignal } from './call-signal';

describe('a signal of its own for each request', () => {
  it('leaves no listener on the run signal, however many requests ran', async () => {
    const run = new AbortController();
    for (let i = 0; i < 20; i++) {
      await withCallSignal(run.signal, async (own) => {
        // what the SDK does with a request's signal: a listener it never removes
        own.addEventListener('abort', () => undefined);
      });
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('follows a stop of the run, with its reason', async () => {
    const run = new AbortController();
    const reason = new Error('stopped');
    const seen = await withCallSignal(run.signal, async (own) => {
      run.abort(reason);
      return own;
    });
    expect(seen.aborted).toBe(true);
    expect(seen.reason).toBe(reason);
  });

  it('is aborted from the start when the run already was, and absent without a run signal', async () => {
    const run = new AbortController();
    run.abort();
    expect(await withCallSignal(run.signal, async (own) => own.aborted)).toBe(true);
    expect(await withCallSignal(undefined, async (own) => own)).toBeUndefined();
  });
});
