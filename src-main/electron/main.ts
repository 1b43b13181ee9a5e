/**
 * Electron entry: app lifecycle only. The runtime, the transport and the window factory
 * live elsewhere; this file wires them together and owns the quit sequence.
 */
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { startElectronHost, type ElectronHost } from '../host/electron/electron-host';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './app-protocol';
import { mainWindowOptions } from './window-options';
import { hardenWebContents } from './harden';
import { createQuitSequence } from './quit-sequence';

const here = fileURLToPath(new URL('.', import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  app.enableSandbox();
  void boot();
}

async function boot(): Promise<void> {
  await app.whenReady();
  if (!process.env['WORKBENCH_HOME']) process.env['WORKBENCH_HOME'] = app.getPath('userData');

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );
  handleAppProtocol(join(here, '../renderer'));

  const runtime: Runtime = createRuntime();
  const allowedOrigins = [APP_ORIGIN, ...(devServerUrl ? [new URL(devServerUrl).origin] : [])];
  const host: ElectronHost = startElectronHost({ runtime, ipcMain, allowedOrigins });

  let window: BrowserWindow | null = null;
  const openWindow = () => {
    window = new BrowserWindow(mainWindowOptions(join(here, '../preload/index.cjs')));
    hardenWebContents(window.webContents, allowedOrigins, (url) => void shell.openExternal(url));
    host.attach(window.webContents);
    window.once('ready-to-show', () => window?.show());
    window.on('closed', () => (window = null));
    void window.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  };
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
}
