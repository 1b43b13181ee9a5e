/**
 * The Chromium the UI benchmarks drive. Headless Chromium sometimes stops producing
 * frames, and then every `requestAnimationFrame` the benches wait on never fires: the
 * compare and ui benches sat idle for minutes with no CPU used (seen on 2 December, twice
 * each). With a display (`xvfb-run`), Chromium runs headed and its frames come from the
 * display, so the benches run headed when one exists, and say which mode they ran in.
 */
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env['WORKBENCH_CHROMIUM'] ?? '/usr/bin/chromium';

export async function launchBenchBrowser(): Promise<Browser> {
  const hasDisplay = Boolean(process.env['DISPLAY']);
  if (!hasDisplay)
    console.error(
      '[bench] no DISPLAY: Chromium runs headless, where frames can stop; run under `xvfb-run -a` if a bench sits idle',
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: !hasDisplay,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      // a headed window that is covered or unfocused must keep its frames and timers
      '--disable-backgrounding-occluded-windows',
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
    ],
  });
}

/** One line on stderr per phase of a long bench, so a stalled one shows where it stopped. */
export function benchProgress(bench: string, what: string): void {
  console.error(`[bench ${bench}] ${new Date().toISOString().slice(11, 19)} ${what}`);
}
