import { describe, expect, it, vi } from 'vitest';
import { createQuitSequence } from './quit-sequence';

describe('quit sequence', () => {
  it('holds the quit until the runtime is disposed, then disposes the host and quits again', async () => {
    const order: string[] = [];
    let finish: () => void = () => {};
    const runtime = {
      dispose: vi.fn(
        () =>
          new Promise<void>((resolve) => {
            order.push('runtime:start');
            finish = () => {
              order.push('runtime:done');
              resolve();
            };
          }),
      ),
    };
    const host = { dispose: vi.fn(() => void order.push('host')) };
    const quitAgain = vi.fn(() => order.push('quit'));
    const quit = createQuitSequence({ runtime, host });
    const first = { preventDefault: vi.fn() };
    quit.onBeforeQuit(first, quitAgain);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(quit.phase).toBe('disposing');
    // asking again while it disposes does not start a second disposal
    const second = { preventDefault: vi.fn() };
    quit.onBeforeQuit(second, quitAgain);
    expect(second.preventDefault).toHaveBeenCalled();
    expect(runtime.dispose).toHaveBeenCalledTimes(1);
    finish();
    await vi.waitFor(() => expect(quitAgain).toHaveBeenCalled());
    expect(order).toEqual(['runtime:start', 'runtime:done', 'host', 'quit']);
    const last = { preventDefault: vi.fn() };
    quit.onBeforeQuit(last, quitAgain);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });

  it('quits after the timeout when a cleanup hangs', async () => {
    const quitAgain = vi.fn();
    const quit = createQuitSequence({
      runtime: { dispose: () => new Promise<void>(() => {}) },
      host: { dispose: vi.fn() },
      timeoutMs: 50,
    });
    quit.onBeforeQuit({ preventDefault: vi.fn() }, quitAgain);
    await vi.waitFor(() => expect(quitAgain).toHaveBeenCalled(), { timeout: 2000 });
  });

  it('quits when the cleanup fails, and says so', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const quitAgain = vi.fn();
    const quit = createQuitSequence({
      runtime: { dispose: () => Promise.reject(new Error('docker went away')) },
      host: { dispose: vi.fn() },
    });
    quit.onBeforeQuit({ preventDefault: vi.fn() }, quitAgain);
    await vi.waitFor(() => expect(quitAgain).toHaveBeenCalled());
    expect(error.mock.calls.join()).toMatch(/docker went away/);
    error.mockRestore();
  });
});
