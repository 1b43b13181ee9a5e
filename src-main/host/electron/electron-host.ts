/**
 * The Electron transport: one `ipcMain.handle` per request channel, each checking that
 * the sender is our own UI frame before validating the input, and pushes to the
 * attached windows (run events batched a frame at a time; guarded against a destroyed
 * window, which would otherwise throw "Object has been destroyed" in main).
 */
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { REQUEST_CHANNELS, type IpcResult } from '@shared/ipc';
import type { Runtime } from '../../runtime/runtime';
import { dispatchRequest, type Handlers } from '../contract';
import { createHostContext, type HostContextOptions, type PushSink } from '../host-context';

/** The subset of ipcMain we use, so tests can pass a fake. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown,
  ): void;
  removeHandler(channel: string): void;
}

/** The subset of webContents we push to. */
export type PushTarget = Pick<WebContents, 'send' | 'isDestroyed' | 'once'>;

export interface ElectronHostOptions {
  runtime: Runtime;
  ipcMain: IpcMainLike;
  /** origins our UI is served from (app://workbench, or the dev server) */
  allowedOrigins: string[];
  handlers?: Handlers;
  context?: Omit<HostContextOptions, 'mode' | 'handlers'>;
}

export interface ElectronHost {
  attach(webContents: PushTarget): void;
  /** delivers pending run events now */
  flush(): void;
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
    const parsed = new URL(url);
    // Custom schemes report origin "null" in some versions; compare scheme://host then.
    const schemeHost = `${parsed.protocol}//${parsed.host}`;
    return allowedOrigins.includes(parsed.origin) || allowedOrigins.includes(schemeHost);
  } catch {
    return false;
  }
}

export function startElectronHost(options: ElectronHostOptions): ElectronHost {
  const targets = new Map<PushTarget, () => void>();
  const sink: PushSink = (channel, payload) => {
    for (const [wc, detach] of targets) {
      if (wc.isDestroyed()) {
        targets.delete(wc);
        detach();
        continue;
      }
      wc.send(channel, payload);
    }
  };
  const context = createHostContext(
    options.runtime,
    {
      ...options.context,
      mode: 'desktop',
      ...(options.handlers ? { handlers: options.handlers } : {}),
    },
    sink,
  );
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
      return dispatchRequest(context.handlers, channel, input);
    });
  }

  return {
    attach(webContents) {
      if (targets.has(webContents)) return;
      // An open window can answer ask_human (the question arrives as an event).
      const detach = options.runtime.services.human.attach({ name: 'desktop window' });
      targets.set(webContents, detach);
      webContents.once('destroyed', () => {
        targets.delete(webContents);
        detach();
      });
    },
    flush: () => context.flush(),
    dispose() {
      context.flush();
      context.dispose();
      for (const detach of targets.values()) detach();
      targets.clear();
      for (const channel of REQUEST_CHANNELS) options.ipcMain.removeHandler(channel);
    },
  };
}
