/**
 * A batch's check command: after the agent finishes, `sh -c COMMAND` runs in the run's
 * own sandbox (the workspace as the agent left it); exit 0 passes. Its result is a
 * `check.finished` event, so the batch grid reads it back from the run's history.
 */
import type { RunEventPayload } from '@shared/events';
import type { SandboxSettings } from '../config/schema';
import type { SandboxManager } from '../sandbox/sandbox-manager';
import type { Session } from '../session/session';
import { SandboxAccess } from '../tools/sandbox/sandbox-access';

/** what the history keeps of the check's output (its end: where test runners say why) */
const OUTPUT_TAIL = 2_000;

export interface CheckInput {
  command: string;
  manager: SandboxManager;
  session: Session;
  settings: SandboxSettings;
  emit: (event: RunEventPayload) => void;
  signal?: AbortSignal;
}

export async function runCheck(input: CheckInput): Promise<boolean> {
  const started = performance.now();
  const access = new SandboxAccess({
    manager: input.manager,
    session: input.session,
    settings: input.settings,
    emit: input.emit,
  });
  const base = { type: 'check.finished' as const, command: input.command };
  try {
    const result = await access.use(input.signal, (sandbox, signal) =>
      sandbox.exec(['sh', '-c', input.command], {
        timeoutMs: input.settings.timeout * 1000,
        signal,
      }),
    );
    const ok = result.exitCode === 0 && !result.timedOut;
    input.emit({
      ...base,
      ok,
      exitCode: result.timedOut ? null : result.exitCode,
      output: tail(`${result.stdout}${result.stderr}`),
      durationMs: Math.round(performance.now() - started),
      ...(result.timedOut ? { error: `timed out after ${input.settings.timeout} s` } : {}),
    });
    return ok;
  } catch (error) {
    // A stopped run is not a failed check: the stop reaches the caller as it is.
    if (input.signal?.aborted) throw error;
    input.emit({
      ...base,
      ok: false,
      exitCode: null,
      output: '',
      durationMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    });
    return false;
  } finally {
    access.dispose();
  }
}

function tail(text: string): string {
  return text.length > OUTPUT_TAIL ? `…${text.slice(-OUTPUT_TAIL)}` : text;
}
