/**
 * For tests that drive a real Chromium. Without one they skip with the reason printed,
 * except under REQUIRE_BROWSER=1 (CI), where a missing browser is a failure
 * (the vitest counterpart of e2e/support/chromium.ts).
 */
import { accessSync, constants } from 'node:fs';
import { locateChromium } from '../chromium';

export interface ChromiumProbe {
  available: boolean;
  reason: string | null;
  path: string | null;
}

export function probeChromium(): ChromiumProbe {
  const location = locateChromium({});
  let reason: string | null = null;
  if (!location.path) {
    reason = `no Chromium found (looked in ${location.tried.join(', ')}); install it with scripts/setup-system.sh or set WORKBENCH_CHROMIUM`;
  } else {
    try {
      accessSync(location.path, constants.X_OK);
    } catch {
      reason = `Chromium at ${location.path} is missing or not executable; install it with scripts/setup-system.sh or set WORKBENCH_CHROMIUM`;
    }
  }
  if (reason === null) return { available: true, reason: null, path: location.path };
  if (process.env['REQUIRE_BROWSER'] === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  console.warn(`[tests] browser tests skipped: ${reason}`);
  return { available: false, reason, path: null };
}
