import type { AppApi, BridgeApi } from '@shared/ipc';
import { createPreloadApi } from './preload-api';
import { createWsApi, wsUrlFromLocation } from './ws-api';

/** The desktop app exposes `window.workbench`; browser mode talks to the serving host. */
export function connectApi(win: Window & { workbench?: BridgeApi }): AppApi {
  if (win.workbench) return createPreloadApi(win.workbench);
  return createWsApi(wsUrlFromLocation(win.location));
}
