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
import { locateChromium } from './chromium-location';

export { locateChromium, type ChromiumLocation } from './chromium-location';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
] as const;

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
