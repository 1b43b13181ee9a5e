/**
 * `python_execute` (OpenManus tool/python_execute.py): runs Python code, now in the
 * sandbox instead of the host process with full builtins. The code travels on the
 * interpreter's stdin (no quoting, no size limit of a command-line argument), each call
 * is a fresh interpreter in the workspace folder, stdout and stderr are both returned,
 * and the timeout is a real parameter that stops the process inside the container.
 */
import { z } from 'zod';
import type { SandboxAccess } from './sandbox-access';
import { effectiveTimeoutSeconds, formatCommandResult } from './format-result';
import { fail, type Tool, type ToolResult } from '../tool';
import { ToolOutputStreamer } from './output-streamer';

const schema = z
  .object({
    code: z.string().describe('The Python code to execute.'),
    timeout: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Seconds before the code is stopped; defaults to the configured limit.'),
  })
  .strict();

type PythonArgs = z.infer<typeof schema>;

export function createPythonExecuteTool(access: SandboxAccess): Tool<PythonArgs> {
  return {
    name: 'python_execute',
    description: [
      'Execute Python 3 code in the isolated Linux sandbox and return what it prints (stdout and stderr).',
      'Only printed output is visible: use print() to see results; return values are not captured.',
      `Each call starts a fresh interpreter in ${access.settings.work_dir}; save files there to keep them between calls.`,
      `The code is stopped after ${access.settings.timeout}s (or the timeout you pass).` +
        (access.settings.network_enabled ? '' : ' There is no network access.'),
    ].join(' '),
    schema,
    async execute({ code, timeout }, context) {
      if (!code.trim()) return fail('Parameter `code` is empty.');
      const timeoutSeconds = effectiveTimeoutSeconds(timeout, access.settings);
      return access
        .use(context.signal, async (sandbox, signal): Promise<ToolResult> => {
          const live = new ToolOutputStreamer(context, 'python_execute');
          const result = await sandbox
            .exec(['python3', '-u', '-'], {
              stdin: code,
              timeoutMs: timeoutSeconds * 1000,
              signal,
              onStdout: live.onStdout,
              onStderr: live.onStderr,
            })
            .finally(() => live.close());
          const formatted = formatCommandResult(result, {
            timeoutSeconds,
            settings: access.settings,
            what: 'The Python code',
          });
          if (formatted.error === undefined && result.exitCode !== 0) {
            // An exception (traceback on stderr) is a failed call, as in the original.
            return fail(
              `The Python code failed (exit code ${result.exitCode ?? 'unknown'}):\n${result.stderr || formatted.output}`,
              {
                output: result.stdout,
                ...(result.exitCode !== null ? { exitCode: result.exitCode } : {}),
              },
            );
          }
          return formatted;
        })
        .catch((error: unknown) =>
          access.failureResult(error, { tool: 'python_execute', step: context.step }),
        );
    },
  };
}
