/**
 * `workbench batch TASKS.jsonl --agent NAME [--profile A]... [--repeat K] [--concurrency N]
 * [--check CMD]`, `workbench batch --resume BATCH_ID`, `workbench batch show BATCH_ID`.
 * Progress goes to stderr; the grid to stdout (`--json`: the grid as JSON). Ctrl-C stops
 * the batch (its live runs end `cancelled` and are run again by a resume).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BatchGrid, BatchTask } from '@shared/domain/batch';
import { AgentDefinitionError } from '../../runtime/agents/definitions/load-definition';
import type { WorkbenchConfig } from '../../runtime/config/schema';
import { AgentChoiceError, resolveAgentChoice } from '../../runtime/launch/agent-choice';
import { ConfigError } from '../../runtime/config/load';
import { BatchPlanError, parseTaskLines } from '../../runtime/batch/batch-plan';
import { BatchNotFoundError } from '../../runtime/batch/batch-store';
import { FileReadError, readRegularFile } from '../../runtime/util/read-regular-file';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { EXIT, UsageError } from '../usage-error';
import { verdictExitCode } from '@shared/run-outcome';
import { formatGrid } from '../batch-report';
import { followBatch } from '../follow-batch';
import { checkProfileName } from '../profile-option';

const MAX_TASK_FILE = 16 * 1024 * 1024;

export async function batchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('batch', args, {
    // several: one grid row per task and agent (`--agent a@3 --agent a@4`, docs/agents.md)
    agent: { type: 'string', multiple: true },
    profile: { type: 'string', multiple: true },
    repeat: { type: 'string' },
    concurrency: { type: 'string' },
    check: { type: 'string' },
    'max-steps': { type: 'string' },
    config: { type: 'string', short: 'c' },
    resume: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const runtime = createRuntime(values.config !== undefined ? { configFile: values.config } : {});
  try {
    if (positionals[0] === 'show') {
      const batchId = positionals[1];
      if (!batchId) throw new UsageError('workbench batch show BATCH_ID');
      printGrid(runtime.batches.grid(batchId), values.json);
      return EXIT.finished;
    }
    if (values.config !== undefined && !existsSync(values.config))
      throw new UsageError(`config file not found: ${values.config}`);
    const config = loadConfig(runtime);
    let started: { batchId: string; done: Promise<unknown> };
    if (values.resume !== undefined) {
      if (positionals.length > 0) throw new UsageError('--resume takes no task file');
      started = runtime.batches.resume(values.resume);
    } else {
      const file = positionals[0];
      if (file === undefined || positionals.length > 1)
        throw new UsageError('workbench batch TASKS.jsonl --agent NAME (one task file)');
      const rows = batchAgents(values.agent ?? ['manus'], runtime, config);
      const agent = rows[0]!.agent!;
      const profiles = values.profile ?? [];
      for (const profile of profiles) checkProfileName(config, profile);
      const maxSteps = parsePositiveInt(values['max-steps'], '--max-steps');
      const parsed = parseTaskLines(
        readRegularFile(resolve(file), MAX_TASK_FILE, 'The task file'),
        file,
      );
      // one agent: the rows are the tasks, as before; several: each task once per agent
      const tasks =
        rows.length === 1 && rows[0]!.agentRef === undefined
          ? parsed
          : parsed.flatMap((task) => rows.map((row) => ({ ...task, ...row })));
      started = runtime.batches.start({
        agent,
        tasks,
        profiles,
        repeat: parsePositiveInt(values.repeat, '--repeat') ?? 1,
        concurrency: parsePositiveInt(values.concurrency, '--concurrency') ?? 1,
        ...(maxSteps !== undefined ? { maxSteps } : {}),
        ...(values.check !== undefined ? { check: values.check } : {}),
      });
    }
    return await follow(runtime, started, values.json);
  } catch (error) {
    if (
      error instanceof AgentDefinitionError ||
      error instanceof BatchPlanError ||
      error instanceof BatchNotFoundError ||
      error instanceof FileReadError
    )
      throw new UsageError(error.message);
    throw error;
  } finally {
    await runtime.dispose();
  }
}

async function follow(
  runtime: Runtime,
  started: { batchId: string; done: Promise<unknown> },
  isJson: boolean,
): Promise<number> {
  const { batchId } = started;
  // The id first, on its own line: a script keeps it for --resume.
  process.stderr.write(`batch ${batchId}\n`);
  const { interrupted } = await followBatch(runtime, started, {
    what: 'batch',
    resumeWith: `workbench batch --resume ${batchId}`,
    stop: () => runtime.batches.stop(batchId),
  });
  const grid = runtime.batches.grid(batchId);
  printGrid(grid, isJson);
  if (interrupted || !grid.progress.isComplete) return EXIT.interrupted;
  // A run is good as `workbench run` would exit 0 for it: its verdict, the history's.
  const allGood = grid.cells
    .flat()
    .every((cell) =>
      cell.runs.every(
        (run) => run.verdict && verdictExitCode(run.verdict.kind) === 0 && run.check !== false,
      ),
    );
  return allGood ? EXIT.finished : EXIT.error;
}

/** What each `--agent` runs (agent-choice.ts); a bad reference is bad usage. */
function batchAgents(
  refs: readonly string[],
  runtime: Runtime,
  config: WorkbenchConfig,
): Pick<BatchTask, 'agent' | 'agentRef' | 'agentLabel'>[] {
  if (new Set(refs).size !== refs.length) throw new UsageError('an --agent is named twice');
  return refs.map((ref) => {
    try {
      return resolveAgentChoice(ref, runtime.services.home, config);
    } catch (error) {
      if (error instanceof AgentChoiceError) throw new UsageError(error.message);
      throw error;
    }
  });
}

function printGrid(grid: BatchGrid, isJson: boolean): void {
  process.stdout.write(isJson ? `${JSON.stringify(grid)}\n` : `${formatGrid(grid)}\n`);
}

function loadConfig(runtime: Runtime) {
  try {
    return runtime.services.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
