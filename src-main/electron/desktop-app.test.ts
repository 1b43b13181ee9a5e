import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '@shared/ipc';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { testRunFactory } from '../host/testing/test-runs';
import { startDesktopApp, type DesktopApp } from './desktop-app';
import { CONTENT_SECURITY_POLICY } from '../host/csp';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  session,
  FakeWebContents,
} from './testing/electron-mock';

let desktop: DesktopApp | null = null;
let home: string;

beforeEach(() => {
  vi.clearAllMocks();
  app.removeAllListeners();
  BrowserWindow.instances.length = 0;
  ipcMain.handlers.clear();
  home = mkdtempSync(join(tmpdir(), 'wb-desktop-'));
  process.env['WORKBENCH_HOME'] = home;
});
afterEach(async () => {
  desktop?.host.dispose();
  await desktop?.runtime.dispose();
  desktop = null;
  delete process.env['WORKBENCH_HOME'];
});

async function boot(): Promise<DesktopApp> {
  const started = startDesktopApp({
    rendererDir: home,
    preloadPath: '/app/out/preload/index.cjs',
    handleSignals: false,
    createRuntime: (options) => {
      const runtime: Runtime = createRuntime({
        ...options,
        factory: testRunFactory(() => runtime),
      });
      return runtime;
    },
  });
  if (!started) throw new Error('did not start');
  desktop = await started;
  return desktop;
}

const fromApp = { senderFrame: { url: 'app://workbench/index.html' } };
async function invoke(channel: string, input: unknown): Promise<IpcResult<unknown>> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return (await (handler(fromApp, input) as unknown)) as IpcResult<unknown>;
}

describe('desktop app', () => {
  it('quits at once when another instance holds the lock (that one is focused)', () => {
    app.requestSingleInstanceLock.mockReturnValueOnce(false);
    expect(
      startDesktopApp({ rendererDir: home, preloadPath: '/p', handleSignals: false }),
    ).toBeNull();
    expect(app.quit).toHaveBeenCalled();
    expect(BrowserWindow.instances).toHaveLength(0);
    expect(protocol.registerSchemesAsPrivileged).not.toHaveBeenCalled();
  });

  it('opens one hardened window on app://, denies permissions, and sets a menu', async () => {
    const d = await boot();
    expect(app.enableSandbox).toHaveBeenCalled();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
    expect(BrowserWindow.instances).toHaveLength(1);
    const win = BrowserWindow.instances[0] as InstanceType<typeof BrowserWindow>;
    expect(win.loadedUrl).toBe('app://workbench/index.html');
    expect(win.options).toMatchObject({
      show: false,
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
    });
    const deny = session.defaultSession.setPermissionRequestHandler.mock.calls[0]?.[0] as (
      wc: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const callback = vi.fn();
      deny(null, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    // every webContents, also ones created later, is hardened
    const later = new FakeWebContents();
    app.emit('web-contents-created', {}, later);
    expect(later.windowOpenHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(later.listenerCount('will-navigate')).toBe(1);
    expect(Menu.setApplicationMenu).toHaveBeenCalledTimes(1);
    // a second instance focuses this window instead of opening another
    app.emit('second-instance');
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(d.window()).toBe(win);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
  });

  it('keeps API keys encrypted with safeStorage in the desktop app', async () => {
    await boot();
    const key = 'sk-desktop-0123456789';
    const saved = await invoke('config:save', {
      target: 'manus',
      apiKey: { action: 'set', value: key },
    });
    expect(saved).toMatchObject({
      ok: true,
      value: { secretStorage: 'os-encrypted', agents: { manus: { apiKey: { isSet: true } } } },
    });
    const stored = readFileSync(join(home, 'secrets.json'), 'utf8');
    expect(stored).toContain('"llm.manus": "safe:');
    expect(stored).not.toContain(key);
  });

  it("offers the native folder dialog for a run's workspace", async () => {
    await boot();
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/home/me/app'] });
    expect(await invoke('dialog:pick-folder', {})).toEqual({
      ok: true,
      value: { path: '/home/me/app' },
    });
    expect(dialog.showOpenDialog.mock.calls[0]?.at(-1)).toMatchObject({
      properties: expect.arrayContaining(['openDirectory']),
    });
    // cancelled: no folder, not an error
    expect(await invoke('dialog:pick-folder', {})).toEqual({ ok: true, value: { path: null } });
  });

  it('quitting stops the runs and releases the runtime before the app exits', async () => {
    const d = await boot();
    const started = await invoke('run:start', { task: 'ask: still there?', agent: 'toolcall' });
    if (!started.ok) throw new Error(started.error.message);
    const runId = (started.value as { runId: string }).runId;
    while (!d.runtime.services.human.pending(runId).length)
      await new Promise((r) => setTimeout(r, 10));
    const dispose = vi.spyOn(d.runtime, 'dispose');
    const event = { preventDefault: vi.fn() };
    app.emit('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(app.quit).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(d.runtime.runs.isRunning(runId)).toBe(false);
    expect(d.runtime.runs.get(runId)).toMatchObject({ outcome: 'cancelled' });
    expect(ipcMain.handlers.size).toBe(0);
    // the second before-quit (from app.quit) goes through
    const again = { preventDefault: vi.fn() };
    app.emit('before-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
    desktop = null; // already disposed
  });
});
