/**
 * A stand-in for the `electron` module in unit tests: no Electron binary can start on
 * the build machines. It records what the glue asks of Electron so tests can assert it.
 */
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

export class FakeEmitter {
  private listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener) {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      listener(...args);
    };
    return this.on(event, wrapped);
  }
  off(event: string, listener: Listener) {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    );
    return this;
  }
  removeListener(event: string, listener: Listener) {
    return this.off(event, listener);
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
    return true;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
  listenerCount(event: string) {
    return (this.listeners.get(event) ?? []).length;
  }
}

export class FakeWebContents extends FakeEmitter {
  destroyed = false;
  sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, payload: unknown) {
    if (this.destroyed) throw new TypeError('Object has been destroyed');
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  /** what Electron does when the window closes */
  destroy() {
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export class BrowserWindow extends FakeEmitter {
  static instances: BrowserWindow[] = [];
  static getAllWindows() {
    return BrowserWindow.instances;
  }
  static getFocusedWindow() {
    return BrowserWindow.instances[0] ?? null;
  }
  webContents = new FakeWebContents();
  loadedUrl: string | null = null;
  constructor(readonly options: unknown) {
    super();
    BrowserWindow.instances.push(this);
  }
  loadURL(url: string) {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
}

export const ipcMain = {
  handlers: new Map<string, Listener>(),
  handle: vi.fn((channel: string, listener: Listener) => {
    ipcMain.handlers.set(channel, listener);
  }),
  removeHandler: vi.fn((channel: string) => {
    ipcMain.handlers.delete(channel);
  }),
};

export const ipcRenderer = Object.assign(new FakeEmitter(), { invoke: vi.fn() });
export const contextBridge = { exposeInMainWorld: vi.fn() };
export const app = Object.assign(new FakeEmitter(), {
  requestSingleInstanceLock: vi.fn(() => true),
  enableSandbox: vi.fn(),
  whenReady: vi.fn(() => Promise.resolve()),
  quit: vi.fn(),
  getPath: vi.fn(() => '/tmp/workbench-test-userdata'),
  getName: vi.fn(() => 'Agent Workbench'),
  getVersion: vi.fn(() => '0.0.0-test'),
});
export const protocol = { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() };
export const net = { fetch: vi.fn() };
export const shell = { openExternal: vi.fn(), openPath: vi.fn(() => Promise.resolve('')) };
export const session = {
  defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
};
export const dialog = {
  showOpenDialog: vi.fn(
    async (..._args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> => ({
      canceled: true,
      filePaths: [],
    }),
  ),
};
export const Menu = {
  buildFromTemplate: vi.fn((template: unknown[]) => ({ template })),
  setApplicationMenu: vi.fn(),
};
/** Reversible "encryption" so tests can tell stored ciphertext from the key. */
export const safeStorage = {
  isEncryptionAvailable: vi.fn(() => true),
  getSelectedStorageBackend: vi.fn(
    (): 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'unknown' => 'gnome_libsecret',
  ),
  encryptString: vi.fn((text: string) => Buffer.from([...text].reverse().join(''), 'utf8')),
  decryptString: vi.fn((data: Buffer) => [...data.toString('utf8')].reverse().join('')),
};

export default {
  app,
  BrowserWindow,
  ipcMain,
  ipcRenderer,
  contextBridge,
  protocol,
  net,
  shell,
  session,
  Menu,
  dialog,
  safeStorage,
};
