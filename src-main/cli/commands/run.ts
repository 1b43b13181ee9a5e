import { existsSync } from 'node:fs';
import { isAgentName } from '@shared/domain/agent';
import { ConfigError } from '../../runtime/config/load';
import type { RunEvent } from '@shared/events';
import { createRuntime } from '../../runtime/runtime';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { EXIT, UsageError } from '../usage-error';
import { formatEvent } from '../format-event';
import { attachTerminalPrompt } from '../human-prompt';
import { mcpServerOverlay } from '../mcp-server-options';
import { resolveTaskText } from '../task-file';

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    agent: { type: 'string' },
    flow: { type: 'string' },
    config: { type: 'string' },
    'max-steps': { type: 'string' },
    jsonl: { type: 'boolean', default: false },
    // OpenManus's run_mcp.py habits (mcp-server-options.ts)
    connection: { type: 'string' },
    'server-url': { type: 'string' },
    'server-command': { type: 'string' },
  });
  const given = positionals.join(' ').trim();
  if (!given) throw new UsageError('run needs a TASK (e.g. workbench run "list the files")');
  const task = resolveTaskText(given);
  const agent = values.agent ?? 'manus';
  if (!isAgentName(agent))
    throw new UsageError(`unknown agent "${agent}" (manus, swe, browser, mcp, toolcall)`);
  if (values.flow !== undefined && values.flow !== 'planning') {
    throw new UsageError(`unknown flow "${values.flow}" (the only flow is "planning")`);
  }
  const maxSteps = parsePositiveInt(values['max-steps'], '--max-steps');
  const overlay = mcpServerOverlay({
    agent,
    connection: values.connection,
    serverUrl: values['server-url'],
    serverCommand: values['server-command'],
  });

  const runtime = createRuntime({
    // a run that never uses the sandbox does not load the Docker client (issue 16 item 7)
    sweepAtStart: false,
    ...(values.config !== undefined ? { configFile: values.config } : {}),
    ...(overlay ? { configOverlay: overlay } : {}),
  });
  try {
    // Bad config is bad usage: say which file and key, exit 2, before any run starts.
    if (values.config !== undefined && !existsSync(values.config)) {
      throw new UsageError(`config file not found: ${values.config}`);
    }
    runtime.services.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError)
      throw new UsageError(error.message);
    throw error;
  }
  const print = values.jsonl
    ? (event: RunEvent) => process.stdout.write(`${JSON.stringify(event)}\n`)
    : (event: RunEvent) => {
        const line = formatEvent(event);
        if (line) process.stderr.write(`${line}\n`);
      };
  runtime.runs.onEvent(print);
  // ask_human: answered at the terminal on a TTY; otherwise it fails with a clear reason.
  const detachPrompt = attachTerminalPrompt(runtime.services.human);

  const handle = runtime.runs.start({
    task,
    agent,
    ...(values.flow === 'planning' ? { flow: 'planning' as const } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
  });
  let interrupted = false;
  // The first Ctrl-C stops the run cleanly (it still ends with run.finished, the sandbox
  // is removed, the history is kept); the handler is `once`, so a second one quits at once.
  const onSignal = () => {
    interrupted = true;
    process.stderr.write('workbench: stopping the run (Ctrl-C again to quit at once)\n');
    runtime.runs.stop(handle.runId);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await handle.done;
    await runtime.dispose();
    if (interrupted) return EXIT.interrupted;
    if (result.outcome === 'finished') return EXIT.finished;
    if (result.outcome === 'max_steps') return EXIT.maxSteps;
    if (result.outcome === 'cancelled') return EXIT.interrupted;
    return EXIT.error;
  } finally {
    detachPrompt();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
