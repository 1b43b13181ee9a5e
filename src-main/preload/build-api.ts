import type { IpcRenderer } from 'electron';
import { API_METHODS, API_SUBSCRIPTIONS, type BridgeApi, type PushChannel } from '@shared/ipc';

/**
 * The surface exposed to the page, built from the contract table so it cannot drift:
 * one method per request channel, one subscription per push channel.
 */
export function buildPreloadApi(
  ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
): BridgeApi {
  const api: Record<string, unknown> = {};
  for (const [method, channel] of Object.entries(API_METHODS)) {
    api[method] = (input: unknown) => ipc.invoke(channel, input);
  }
  for (const [method, channel] of Object.entries(API_SUBSCRIPTIONS) as [string, PushChannel][]) {
    api[method] = (listener: (payload: unknown) => void) => {
      // Wrap so the IpcRendererEvent (which exposes `sender`) never reaches the page.
      const wrapped = (_event: unknown, payload: unknown) => listener(payload);
      ipc.on(channel, wrapped);
      return () => {
        ipc.removeListener(channel, wrapped);
      };
    };
  }
  return api as BridgeApi;
}
