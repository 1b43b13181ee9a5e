import {
  API_METHODS,
  API_SUBSCRIPTIONS,
  unwrapResult,
  type AppApi,
  type BridgeApi,
  type IpcResult,
} from '@shared/ipc';

/**
 * AppApi over the preload bridge (`window.workbench`) in the desktop app: every method
 * unwraps the IpcResult envelope (throwing AppApiError with its code), subscriptions
 * pass straight through. Built from the contract table, so it cannot miss an entry.
 */
export function createPreloadApi(bridge: BridgeApi): AppApi {
  const api: Record<string, unknown> = {};
  const methods = bridge as unknown as Record<string, (input: unknown) => Promise<unknown>>;
  for (const method of Object.keys(API_METHODS)) {
    api[method] = async (input: unknown) => {
      const call = methods[method];
      if (!call) throw new Error(`The desktop bridge has no method ${method}: restart the app`);
      return unwrapResult((await call(input)) as IpcResult<unknown>);
    };
  }
  const subscriptions = bridge as unknown as Record<
    string,
    (listener: (payload: unknown) => void) => () => void
  >;
  for (const method of Object.keys(API_SUBSCRIPTIONS)) {
    api[method] = (listener: (payload: unknown) => void) => {
      const subscribe = subscriptions[method];
      if (!subscribe) throw new Error(`The desktop bridge has no subscription ${method}`);
      return subscribe(listener);
    };
  }
  // The cast is checked by the contract table: one entry per AppApi key (see the test).
  return api as AppApi;
}
