/**
 * Electron entry. Everything is in desktop-app.ts; this only says where the built
 * renderer and preload are.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDesktopApp } from './desktop-app';

const here = fileURLToPath(new URL('.', import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];

void startDesktopApp({
  rendererDir: join(here, '../renderer'),
  preloadPath: join(here, '../preload/index.cjs'),
  ...(devServerUrl ? { devServerUrl } : {}),
})?.catch((error: unknown) => {
  console.error(`[workbench] the app could not start: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
