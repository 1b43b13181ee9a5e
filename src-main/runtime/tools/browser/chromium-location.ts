/**
 * Where the system Chromium is, without loading playwright-core: the pre-flight of every
 * `workbench run` asks, and a run that never opens a browser should not load the driver
 * (issue 16 item 7). `[browser] executable_path`, else WORKBENCH_CHROMIUM, else the first
 * system Chromium or Chrome found.
 */
import { existsSync } from 'node:fs';
import type { BrowserSettings } from '../../config/schema';

const SYSTEM_CANDIDATES: Record<string, string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

export interface ChromiumLocation {
  path: string | null;
  /** where the path came from, for error messages */
  source: 'config' | 'env' | 'system' | 'none';
  tried: string[];
}

export function locateChromium(
  settings: Pick<BrowserSettings, 'executable_path'>,
  env: NodeJS.ProcessEnv = process.env,
  platform: string = process.platform,
): ChromiumLocation {
  if (settings.executable_path) {
    return { path: settings.executable_path, source: 'config', tried: [settings.executable_path] };
  }
  const fromEnv = env['WORKBENCH_CHROMIUM'];
  if (fromEnv) return { path: fromEnv, source: 'env', tried: [fromEnv] };
  const candidates = SYSTEM_CANDIDATES[platform] ?? [];
  const found = candidates.find((p) => existsSync(p));
  return found
    ? { path: found, source: 'system', tried: candidates }
    : { path: null, source: 'none', tried: candidates };
}
