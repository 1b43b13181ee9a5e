import { existsSync } from 'node:fs';

/** The system Chromium; override with WORKBENCH_CHROMIUM (never downloaded by us). */
export function chromiumPath(): string {
  return process.env['WORKBENCH_CHROMIUM'] ?? '/usr/bin/chromium';
}

/**
 * Null when the browser can run; otherwise why not. With REQUIRE_BROWSER=1 (CI) a
 * missing browser is a failure, not a skip.
 */
export function browserUnavailableReason(): string | null {
  const path = chromiumPath();
  if (existsSync(path)) return null;
  const reason = `Chromium not found at ${path} (install it with scripts/setup-system.sh or set WORKBENCH_CHROMIUM)`;
  if (process.env['REQUIRE_BROWSER'] === '1') throw new Error(`REQUIRE_BROWSER=1: ${reason}`);
  return reason;
}
