import { describe, expect, it, vi } from 'vitest';
import { API_METHODS, API_SUBSCRIPTIONS } from '@shared/ipc';
import { buildPreloadApi } from './build-api';

describe('preload bridge (E2, checklist 20)', () => {
  it('exposes exactly one named function per contract entry, nothing generic', () => {
    const ipc = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() };
    const api = buildPreloadApi(ipc as never);
    expect(Object.keys(api).sort()).toEqual(
      [...Object.keys(API_METHODS), ...Object.keys(API_SUBSCRIPTIONS)].sort(),
    );
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });

  it('invokes the named channel and never hands the IPC event to the page', async () => {
    const ipc = {
      invoke: vi.fn(async () => ({ ok: true, value: [] })),
      on: vi.fn(),
      removeListener: vi.fn(),
    };
    const api = buildPreloadApi(ipc as never);
    await api.listRuns({});
    expect(ipc.invoke).toHaveBeenCalledWith('runs:list', {});
    const listener = vi.fn();
    const stop = api.onConfigChanged(listener);
    const wrapped = ipc.on.mock.calls[0]?.[1] as (event: unknown, payload: unknown) => void;
    wrapped({ sender: { ipc: 'secret' } }, { file: 'x' });
    expect(listener).toHaveBeenCalledWith({ file: 'x' });
    expect(listener.mock.calls[0]).toHaveLength(1);
    stop();
    expect(ipc.removeListener).toHaveBeenCalledWith('config:changed', wrapped);
  });
});
