import { unwrapResult, type AppApi, type BridgeApi } from '@shared/ipc';

/** AppApi over the preload bridge (`window.workbench`) in the desktop app. */
export function createPreloadApi(bridge: BridgeApi): AppApi {
  return {
    startRun: async (input) => unwrapResult(await bridge.startRun(input)),
    stopRun: async (input) => unwrapResult(await bridge.stopRun(input)),
    listRuns: async (input) => unwrapResult(await bridge.listRuns(input)),
    onRunEvents: (listener) => bridge.onRunEvents(listener),
  };
}
