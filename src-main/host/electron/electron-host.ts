/**
 * The Electron transport: one `ipcMain.handle` per request channel, each checking that
 * the sender is our own UI frame before validating the input, and batched pushes to the
 * window's webContents (guarded against a destroyed window).
 */
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { API_SUBSCRIPTIONS, REQUEST_CHANNELS, type IpcResult } from '@shared/ipc';
import type { RunEvent } from '@shared/events';
import type { Runtime } from '../../runtime/runtime';
import { createHandlers, dispatchRequest, type Handlers } from '../contract';
import { PushBatcher } from '../push-batcher';

/** The subset of ipcMain we use, so tests can pass a fake. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown,
  ): void;
  removeHandler(channel: string): void;
}

export interface ElectronHostOptions {
  runtime: Runtime;
  ipcMain: IpcMainLike;
  /** origins our UI is served from (app://workbench, or the dev server) */
  allowedOrigins: string[];
  handlers?: Handlers;
}

export interface ElectronHost {
  attach(webContents: WebContents): void;
  dispose(): void;
}

export function isAllowedSender(
  event: Pick<IpcMainInvokeEvent, 'senderFrame'>,
  allowedOrigins: string[],
): boolean {
  // senderFrame is null when the frame navigated away or was destroyed: refuse.
  const url = event.senderFrame?.url;
  if (!url) return false;
  try {
    const origin = new URL(url).origin;
    // Custom schemes report origin "null" in some versions; compare scheme://host then.
    const parsed = new URL(url);
    const schemeHost = `${parsed.protocol}//${parsed.host}`;
    return allowedOrigins.includes(origin) || allowedOrigins.includes(schemeHost);
  } catch {
    return false;
  }
}

export function startElectronHost(options: ElectronHostOptions): ElectronHost {
  const handlers = options.handlers ?? createHandlers(options.runtime);
  for (const channel of REQUEST_CHANNELS) {
    options.ipcMain.handle(channel, async (event, input): Promise<IpcResult<unknown>> => {
      if (!isAllowedSender(event, options.allowedOrigins)) {
        return {
          ok: false,
          error: {
            code: 'forbidden',
            message: `Request ${channel} from an unknown frame was refused`,
          },
        };
      }
      return dispatchRequest(handlers, channel, input);
    });
  }

  const targets = new Set<WebContents>();
  const batcher = new PushBatcher((batch: RunEvent[]) => {
    for (const wc of targets) {
      if (wc.isDestroyed()) {
        targets.delete(wc);
        continue;
      }
      wc.send(API_SUBSCRIPTIONS.onRunEvents, batch);
    }
  });
  const unsubscribe = options.runtime.runs.onEvent((event) => batcher.push(event));

  return {
    attach(webContents) {
      targets.add(webContents);
      webContents.once('destroyed', () => targets.delete(webContents));
    },
    dispose() {
      unsubscribe();
      batcher.dispose();
      targets.clear();
      for (const channel of REQUEST_CHANNELS) options.ipcMain.removeHandler(channel);
    },
  };
}
