/**
 * `bash` (OpenManus tool/bash.py, run in the sandbox instead of on the host): a
 * persistent shell whose working directory and environment carry over between calls,
 * with the exit code reported, stderr kept apart, a timeout that really stops the
 * command, and `restart` in the schema (the original had it only as a hidden kwarg).
 */
import { z } from 'zod';
import { posix } from 'node:path';
import type { PersistentShell } from '../../sandbox/persistent-shell';
import type { Sandbox } from '../../sandbox/sandbox';
import { ansiCQuote } from '../../sandbox/shell-protocol';
import type { SandboxAccess } from './sandbox-access';
import { effectiveTimeoutSeconds, formatCommandResult } from './format-result';
import { fail, ok, type Tool, type ToolResult } from '../tool';
import { ToolOutputStreamer } from './output-streamer';

const schema = z
  .object({
    command: z
      .string()
      .optional()
      .describe('The bash command to run. Can be several lines. Not needed with restart.'),
    restart: z
      .boolean()
      .optional()
      .describe('Start a fresh shell (working directory and variables are reset).'),
    timeout: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Seconds before the command is stopped; defaults to the configured limit.'),
  })
  .strict();

type BashArgs = z.infer<typeof schema>;

export function createBashTool(access: SandboxAccess): Tool<BashArgs> {
  let shell: PersistentShell | null = null;
  let shellSandbox: Sandbox | null = null;
  let shellGeneration = -1;
  let lastCwd: string | null = null;

  const closeShell = async () => {
    const current = shell;
    shell = null;
    await current?.close().catch(() => undefined);
  };

  /** The shell for this sandbox, opened (again) when needed; says when state was lost. */
  const ensureShell = async (sandbox: Sandbox, signal: AbortSignal): Promise<string | null> => {
    const isCurrent =
      shell?.isAlive === true && shellSandbox === sandbox && shellGeneration === sandbox.generation;
    if (isCurrent) return null;
    const hadShell = shell !== null || lastCwd !== null;
    await closeShell();
    shell = await sandbox.openShell({ signal });
    shellSandbox = sandbox;
    shellGeneration = sandbox.generation;
    if (!hadShell) return null;
    if (lastCwd && lastCwd !== sandbox.workDir) {
      await sandbox.runInShell(shell, `cd ${ansiCQuote(lastCwd)} 2>/dev/null`, {
        timeoutMs: 10_000,
        signal,
      });
      lastCwd = shell.cwd;
    }
    return (
      'Note: a new shell was started (the previous one ended or the sandbox was restarted): ' +
      `variables set earlier are gone; the working directory is ${shell.cwd}.`
    );
  };

  return {
    name: 'bash',
    description: [
      'Run a bash command in the isolated Linux sandbox (a Docker container) and get its stdout, stderr and exit code.',
      `* The workspace is ${access.settings.work_dir}; files written there are kept and visible to the user.`,
      '* The shell persists between calls: `cd` and `export` carry over. Use restart=true for a fresh shell.',
      `* Commands are stopped after ${access.settings.timeout}s (or the timeout you pass). Run long tasks in the background, e.g. \`python3 app.py > app.log 2>&1 &\`, then check the log.`,
      `* ${access.settings.network_enabled ? 'The sandbox has network access.' : 'The sandbox has no network access: installing packages from the internet fails.'}`,
      '* Stdin is not connected: use non-interactive flags (e.g. `apt-get -y`, `git --no-pager`).',
    ].join('\n'),
    schema,
    async execute(args, context) {
      if (args.restart) {
        await closeShell();
        lastCwd = null;
        if (!args.command?.trim()) {
          return access
            .use(context.signal, async (sandbox, signal) => {
              await ensureShell(sandbox, signal);
              return ok('The shell was restarted.');
            })
            .catch((error: unknown) =>
              access.failureResult(error, { tool: 'bash', step: context.step }),
            );
        }
      }
      const command = args.command ?? '';
      if (!command.trim()) return fail('Parameter `command` is required (or pass restart=true).');
      const timeoutSeconds = effectiveTimeoutSeconds(args.timeout, access.settings);
      return access
        .use(context.signal, async (sandbox, signal): Promise<ToolResult> => {
          const note = await ensureShell(sandbox, signal);
          const active = shell;
          if (!active) return fail('The shell could not be started.');
          const live = new ToolOutputStreamer(context, 'bash');
          const result = await sandbox
            .runInShell(active, command, {
              timeoutMs: timeoutSeconds * 1000,
              signal,
              onStdout: live.onStdout,
              onStderr: live.onStderr,
            })
            .finally(() => live.close());
          lastCwd = result.cwd ? posix.normalize(result.cwd) : lastCwd;
          if (result.shellExited && !active.isAlive) shell = null;
          const formatted = formatCommandResult(result, {
            timeoutSeconds,
            settings: access.settings,
            what: 'The command',
          });
          if (note) {
            if (formatted.error !== undefined) formatted.error = `${note}\n${formatted.error}`;
            else formatted.output = `${note}\n${formatted.output}`;
          }
          return formatted;
        })
        .catch((error: unknown) =>
          access.failureResult(error, { tool: 'bash', step: context.step }),
        );
    },
    async dispose() {
      await closeShell();
    },
  };
}
