/**
 * Finds and starts the Chromium the browser tool drives. We never download a browser:
 * `[browser] executable_path`, else WORKBENCH_CHROMIUM, else the first system Chromium or
 * Chrome found. The flags keep a headless browser quiet (no background traffic, no
 * component updates) and let it run in containers (--no-sandbox).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import type { BrowserSettings } from '../../config/schema';
import { chooseHeadless } from './display';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
] as const;

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

export class BrowserLaunchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BrowserLaunchError';
  }
}

export interface LaunchedChromium {
  browser: Browser;
  /** something the user should know about how it was started (headless fallback) */
  warning?: string;
}

export async function launchChromium(
  settings: Pick<BrowserSettings, 'executable_path' | 'headless'>,
): Promise<LaunchedChromium> {
  const location = locateChromium(settings);
  if (!location.path) {
    throw new BrowserLaunchError(
      `No Chromium or Chrome found (looked in ${location.tried.join(', ') || 'no known places'}). ` +
        'Install Chromium, or set [browser] executable_path in config.toml to its binary.',
    );
  }
  if (!existsSync(location.path)) {
    const where =
      location.source === 'config'
        ? '[browser] executable_path in config.toml'
        : 'WORKBENCH_CHROMIUM';
    throw new BrowserLaunchError(
      `The browser binary ${location.path} (from ${where}) does not exist. Fix the path or remove it to use the system Chromium.`,
    );
  }
  const { headless, warning } = chooseHeadless(settings.headless);
  try {
    const browser = await chromium.launch({
      executablePath: location.path,
      headless,
      args: [...CHROMIUM_FLAGS],
      timeout: 30_000,
    });
    return warning ? { browser, warning } : { browser };
  } catch (error) {
    const detail = firstLines(error instanceof Error ? error.message : String(error), 3);
    const hint = !headless
      ? ' [browser] headless = false needs a working display; set headless = true to run without one.'
      : '';
    throw new BrowserLaunchError(
      `Could not start the browser at ${location.path}: ${detail}.${hint}`,
      {
        cause: error,
      },
    );
  }
}

function firstLines(text: string, count: number): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^=+$/.test(l))
    .slice(0, count)
    .join(' ');
}
