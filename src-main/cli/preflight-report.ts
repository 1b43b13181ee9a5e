/**
 * Pre-flight for `workbench run`: warnings go to stderr before the run; an error
 * refuses the run with its fix and exit code 2 (a configuration problem), so nothing is
 * recorded in the history.
 */
import type { PreflightInput } from '@shared/ipc';
import { preflight } from '../runtime/launch/preflight';
import type { Runtime } from '../runtime/runtime';
import { UsageError } from './usage-error';

const MARK = { ok: '✓', info: 'ℹ', warn: '⚠', error: '✗' } as const;

export async function preflightOrExit(runtime: Runtime, input: PreflightInput): Promise<void> {
  const result = await preflight(runtime.services, input, { probeModel: false });
  for (const check of result.checks) {
    if (check.status === 'ok') continue;
    const fix = check.fix ? `\n    fix: ${check.fix}` : '';
    if (check.status !== 'error')
      process.stderr.write(`${MARK[check.status]} ${check.message}${fix}\n`);
  }
  const errors = result.checks.filter((c) => c.status === 'error');
  if (errors.length === 0) return;
  await runtime.dispose();
  throw new UsageError(
    `the run cannot start: ${errors.map((e) => `${e.message}${e.fix ? ` (fix: ${e.fix})` : ''}`).join('; ')}`,
  );
}
