/**
 * The desktop app's lifecycle: single instance, the hardened window, the runtime and
 * its Electron transport, the menu, and the quit sequence (runs stopped and sandboxes
 * removed before the process exits). main.ts only calls `startDesktopApp`; tests call
 * it with `electron` mocked.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { startElectronHost, type ElectronHost } from '../host/electron/electron-host';
import { FileSecretStore } from '../runtime/config/secrets';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime/runtime';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './app-protocol';
import { hardenWebContents } from './harden';
import { desktopSignInOpener } from './sign-in-opener';
import { menuTemplate } from './menu';
import { createQuitSequence } from './quit-sequence';
import { createSafeStorageCodec } from './safe-storage';
import { mainWindowOptions } from './window-options';

export interface DesktopOptions {
  rendererDir: string;
  preloadPath: string;
  /** the Vite dev server in development */
  devServerUrl?: string;
  /** replaces the runtime (tests) */
  createRuntime?: (options: RuntimeOptions) => Runtime;
  /** quit on SIGINT/SIGTERM (default true; tests run inside a shared process) */
  handleSignals?: boolean;
}

export interface DesktopApp {
  runtime: Runtime;
  host: ElectronHost;
  window(): BrowserWindow | null;
}

/** Returns null when another instance already runs (that one is focused instead). */
export function startDesktopApp(options: DesktopOptions): Promise<DesktopApp> | null {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  registerAppScheme();
  app.enableSandbox();
  return boot(options);
}

async function boot(options: DesktopOptions): Promise<DesktopApp> {
  await app.whenReady();
  const home = process.env['WORKBENCH_HOME'] || app.getPath('userData');
  process.env['WORKBENCH_HOME'] = home;
  const allowedOrigins = [
    APP_ORIGIN,
    ...(options.devServerUrl ? [new URL(options.devServerUrl).origin] : []),
  ];

  // Deny every permission (camera, notifications, geolocation...): the UI needs none.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );
  session.defaultSession.setPermissionCheckHandler(() => false);
  // Every webContents, also ones created later, gets the navigation and window rules.
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, allowedOrigins, (url) => void shell.openExternal(url)),
  );
  handleAppProtocol(options.rendererDir);

  const codec = createSafeStorageCodec(safeStorage);
  if (codec.kind === 'basic-text') {
    console.warn(
      '[workbench] No system keychain is available: API keys saved in the app are only obfuscated. ' +
        'Install a secret service (e.g. gnome-keyring) or use env: references.',
    );
  }
  const runtime = (options.createRuntime ?? createRuntime)({
    home,
    secrets: new FileSecretStore(join(home, 'secrets.json'), codec),
    openUrl: desktopSignInOpener((url) => shell.openExternal(url)),
  });
  const host = startElectronHost({
    runtime,
    ipcMain,
    allowedOrigins,
    context: { pickFolder: () => pickFolder(BrowserWindow.getFocusedWindow()) },
  });

  let window: BrowserWindow | null = null;
  const openWindow = () => {
    const created = new BrowserWindow(mainWindowOptions(options.preloadPath));
    window = created;
    host.attach(created.webContents);
    created.once('ready-to-show', () => created.show());
    created.on('closed', () => {
      if (window === created) window = null;
    });
    void created.loadURL(options.devServerUrl ?? `${APP_ORIGIN}/index.html`);
  };

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        {
          openDataFolder: () => void shell.openPath(home),
          openConfigFile: () => void shell.openPath(runtime.services.config.file),
        },
        {
          platform: process.platform,
          appName: app.getName(),
          isDev: Boolean(options.devServerUrl),
        },
      ),
    ),
  );
  openWindow();

  app.on('second-instance', () => {
    if (!window) return openWindow();
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  const quit = createQuitSequence({ runtime, host });
  app.on('before-quit', (event) => quit.onBeforeQuit(event, () => app.quit()));
  // A terminal's Ctrl-C or a service manager's SIGTERM quits the same careful way.
  if (options.handleSignals !== false) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
  }

  return { runtime, host, window: () => window };
}

/** The native "choose a folder" dialog for the new-run form's workspace. */
async function pickFolder(parent: BrowserWindow | null): Promise<string | null> {
  const options = {
    title: 'Workspace folder for the run',
    properties: ['openDirectory' as const, 'createDirectory' as const],
  };
  const result = parent
    ? await dialog.showOpenDialog(parent, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
