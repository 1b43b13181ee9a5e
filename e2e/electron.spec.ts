/**
 * Desktop specs through Playwright's `_electron`. They need the Electron binary, which
 * `npm start` installs into packaging/ on first start (Node 22.12+, internet access);
 * where it is absent they are skipped with the reason printed.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { API_METHODS, API_SUBSCRIPTIONS } from '../src-shared/ipc';
import { electronExecutable, electronUnavailableReason } from './support/electron-binary';

const unavailable = electronUnavailableReason();
if (unavailable) console.log(`[e2e] Electron specs skipped: ${unavailable}`);

test('the desktop window is isolated and reaches FINISHED for a demo run', async () => {
  test.skip(unavailable !== null, unavailable ?? '');
  const app = await electron.launch({
    executablePath: electronExecutable()!,
    args: ['.'],
    env: { ...process.env, WORKBENCH_DEMO_DELAY_MS: '100' },
  });
  try {
    const prefs = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows().map((w) =>
        // getLastWebPreferences is what Electron's own specs use; it is missing from the typings.
        (
          w.webContents as unknown as { getLastWebPreferences(): Record<string, unknown> }
        ).getLastWebPreferences(),
      ),
    );
    for (const p of prefs) {
      expect(p).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
      });
    }
    const page = await app.firstWindow();
    const globals = await page.evaluate(() => {
      const g = globalThis as Record<string, unknown>;
      return [
        typeof g['require'],
        typeof g['process'],
        Object.keys(g['workbench'] as object).sort(),
      ];
    });
    expect(globals.slice(0, 2)).toEqual(['undefined', 'undefined']);
    // exactly the contract's named methods, nothing generic
    expect(globals[2]).toEqual(
      [...Object.keys(API_METHODS), ...Object.keys(API_SUBSCRIPTIONS)].sort(),
    );
    await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
    await page.getByTestId('task-input').fill('desktop smoke test');
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('run-outcome')).toHaveText('finished', { timeout: 15_000 });
  } finally {
    await app.close();
  }
});
