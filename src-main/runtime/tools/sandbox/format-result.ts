/**
 * Turns a sandbox command result into what the model reads. stdout comes first, stderr
 * after a label, and the exit code is always reported (the original lost it,
 * openmanus.md 3 and 7). Timeouts and out-of-memory kills are errors that say what
 * happened and what to do; a plain non-zero exit is a normal observation.
 */
import type { SandboxSettings } from '../../config/schema';
import { SandboxError, WorkspaceFullError } from '../../sandbox/errors';
import type { CommandResult } from '../../sandbox/sandbox';
import { FileToolError } from './path-guard';
import { fail, ok, type ToolResult } from '../tool';

export function combinedOutput(result: Pick<CommandResult, 'stdout' | 'stderr'>): string {
  let text = result.stdout;
  if (result.stderr) {
    if (text && !text.endsWith('\n')) text += '\n';
    text += `[stderr]\n${result.stderr}`;
  }
  return text;
}

export function formatCommandResult(
  result: CommandResult,
  context: { timeoutSeconds: number; settings: SandboxSettings; what: string },
): ToolResult {
  const output = combinedOutput(result);
  const notes = result.notes.length > 0 ? `\n${result.notes.join('\n')}` : '';
  const exitCode = result.exitCode ?? undefined;
  const extra = {
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(result.cuts && result.cuts.length > 0 ? { earlierCuts: result.cuts } : {}),
  };
  if (result.timedOut) {
    return fail(
      `${context.what} timed out after ${context.timeoutSeconds}s and was stopped (its processes ` +
        'were killed inside the sandbox). Run long tasks in the background and poll, ' +
        `e.g. \`cmd > out.log 2>&1 &\`, or pass a larger timeout.${notes}` +
        (output ? `\nOutput before the timeout:\n${output}` : ''),
      { output, ...extra, timedOut: true },
    );
  }
  if (result.oomKilled) {
    return fail(
      `${context.what} was killed because the sandbox ran out of memory ` +
        `([sandbox] memory_limit = "${context.settings.memory_limit}"). Use less memory ` +
        `(process the data in chunks) or raise memory_limit in config.toml.${notes}` +
        (output ? `\nOutput before it was killed:\n${output}` : ''),
      { output, ...extra },
    );
  }
  const footer = exitCode !== undefined && exitCode !== 0 ? `\n(exit code ${exitCode})` : '';
  const truncated = result.truncated ? '\n(output was truncated in the middle)' : '';
  return ok(`${output}${footer}${truncated}${notes}`.replace(/^\n+/, ''), extra);
}

/** The timeout a call gets: the one asked for, within the configured per-command limit. */
export function effectiveTimeoutSeconds(
  requested: number | undefined,
  settings: SandboxSettings,
): number {
  if (requested === undefined) return settings.timeout;
  return Math.max(1, Math.min(requested, settings.timeout));
}

/**
 * Sandbox and file-tool failures become error observations with their own message
 * (they already say what to do); anything else, cancellation included, is rethrown.
 */
export function failureAsResult(error: unknown): ToolResult {
  // A workspace past its limit ends the run: the next call would only write more.
  if (error instanceof WorkspaceFullError) return fail(error.message, { endsRun: true });
  if (error instanceof SandboxError || error instanceof FileToolError) return fail(error.message);
  throw error;
}
