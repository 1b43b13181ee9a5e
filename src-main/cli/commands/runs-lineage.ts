/**
 * `workbench runs fork RUN --at STEP [--agent-model PROFILE] [--message TEXT] [--max-steps N]
 * [--without-files] [--jsonl]`, `workbench runs resume RUN [--jsonl]`, `workbench runs
 * continue RUN MESSAGE [--max-steps N] [--jsonl]` and `workbench runs delete RUN...`:
 * time travel from the command line (docs/time-travel.md). A fork, a resume or a
 * continuation is a new run, followed live like `workbench run` (same output, same exit
 * codes: 0 finished, 1 error, 2 bad usage, 3 max steps, 130 stopped); the new run's id
 * goes to stderr first.
 */
import { existsSync } from 'node:fs';
import type { RunEvent } from '@shared/events';
import { ConfigError } from '../../runtime/config/load';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { LineageError, type LineageRequest } from '../../runtime/runs/run-lineage';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { attachTerminalPrompt } from '../human-prompt';
import { RunPrinter } from '../run-printer';
import { workspaceLine } from '../workspace-line';
import { resolveRunRef } from '../run-ref';
import { EXIT, UsageError } from '../usage-error';
import { followRun } from '../follow-run';

export async function forkCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('runs fork', args, {
    at: { type: 'string' },
    'agent-model': { type: 'string' },
    // "fork with the new prompt": the next steps run with this agent version (docs/agents.md)
    agent: { type: 'string' },
    message: { type: 'string' },
    'max-steps': { type: 'string' },
    'without-files': { type: 'boolean', default: false },
    config: { type: 'string', short: 'c' },
    jsonl: { type: 'boolean', default: false },
  });
  const usage =
    'usage: workbench runs fork RUN --at STEP [--agent NAME[@VERSION]] [--agent-model PROFILE] [--message TEXT] [--max-steps N] [--without-files]';
  const [ref, ...extra] = positionals;
  if (!ref || extra.length > 0) throw new UsageError(usage);
  const step = parsePositiveInt(values.at, '--at');
  if (step === undefined) throw new UsageError(`--at STEP is required; ${usage}`);
  const maxSteps = parsePositiveInt(values['max-steps'], '--max-steps');
  return follow(
    values.config,
    values.jsonl,
    (runId) => ({
      kind: 'fork',
      runId,
      step,
      ...(values.message !== undefined ? { message: values.message } : {}),
      ...(values['agent-model'] !== undefined ? { agentModel: values['agent-model'] } : {}),
      ...(values.agent !== undefined ? { agentRef: values.agent } : {}),
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      ...(values['without-files'] ? { withoutFiles: true } : {}),
    }),
    ref,
  );
}

export async function resumeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('runs resume', args, {
    config: { type: 'string', short: 'c' },
    jsonl: { type: 'boolean', default: false },
  });
  const [ref, ...extra] = positionals;
  if (!ref || extra.length > 0) throw new UsageError('usage: workbench runs resume RUN');
  return follow(values.config, values.jsonl, (runId) => ({ kind: 'resume', runId }), ref);
}

export async function continueCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('runs continue', args, {
    'max-steps': { type: 'string' },
    config: { type: 'string', short: 'c' },
    jsonl: { type: 'boolean', default: false },
  });
  const usage = 'usage: workbench runs continue RUN MESSAGE [--max-steps N]';
  const [ref, message, ...extra] = positionals;
  if (!ref || message === undefined || extra.length > 0) {
    throw new UsageError(
      extra.length > 0 ? `the message is one argument: quote it; ${usage}` : usage,
    );
  }
  if (message.trim() === '') throw new UsageError(`the message is empty; ${usage}`);
  const maxSteps = parsePositiveInt(values['max-steps'], '--max-steps');
  return follow(
    values.config,
    values.jsonl,
    (runId) => ({
      kind: 'continue',
      runId,
      message,
      ...(maxSteps !== undefined ? { maxSteps } : {}),
    }),
    ref,
  );
}

export async function deleteCommand(args: string[]): Promise<number> {
  const { positionals } = parseCommandArgs('runs delete', args, {});
  if (positionals.length === 0) throw new UsageError('usage: workbench runs delete RUN...');
  const runtime = createRuntime({ sweepAtStart: false });
  try {
    for (const ref of positionals) {
      const runId = resolveRunRef(ref, runtime.runs.list());
      const summary = runtime.runs.get(runId);
      // Another process is still writing it: its owner would write it back.
      if (summary && summary.finishedAt === undefined && !summary.isInterrupted) {
        throw new UsageError(`run ${runId} is still running; stop it first`);
      }
      const { removed } = await runtime.runs.remove(runId);
      if (!removed) throw new UsageError(`no run with id ${runId}`);
      process.stderr.write(`Deleted run ${runId} (its history, snapshots and fork workspace)\n`);
    }
    return EXIT.finished;
  } finally {
    await runtime.dispose();
  }
}

async function follow(
  configFile: string | undefined,
  isJsonl: boolean,
  request: (runId: string) => LineageRequest,
  ref: string,
): Promise<number> {
  if (configFile !== undefined && !existsSync(configFile)) {
    throw new UsageError(`config file not found: ${configFile}`);
  }
  const runtime: Runtime = createRuntime({
    sweepAtStart: false,
    ...(configFile !== undefined ? { configFile } : {}),
  });
  const printer = new RunPrinter(
    (line) => {
      if (!isJsonl) process.stderr.write(`${line}\n`);
    },
    (id, ref) => runtime.runs.history.imagePath?.(id, ref),
    workspaceLine(runtime.services.home),
  );
  let handle;
  try {
    runtime.services.loadConfig();
    const parentId = resolveRunRef(ref, runtime.runs.list());
    runtime.runs.onEvent((event: RunEvent) => {
      if (isJsonl) process.stdout.write(`${JSON.stringify(event)}\n`);
      printer.onEvent(event);
    });
    handle = await runtime.runs.startFrom(request(parentId), { actor: 'terminal' });
  } catch (error) {
    await runtime.dispose();
    if (error instanceof ConfigError || error instanceof LineageError)
      throw new UsageError(error.message);
    throw error;
  }
  process.stderr.write(`workbench: run ${handle.runId}\n`);
  const detachPrompt = attachTerminalPrompt(runtime.services.human);
  return followRun(runtime, handle, printer, { isJsonl, onEnd: detachPrompt });
}
