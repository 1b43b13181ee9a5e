/**
 * `workbench runs patch RUN [--from N] [--to M] [-o FILE]` (issue 32): what a run did to
 * its workspace as one unified patch in git's format, read from its checkpoints. By
 * default from where the run started (an empty folder, or a fork's parent at the fork
 * step) to its last checkpoint; `git apply` on a copy of those files gives the final ones
 * byte for byte (binary files as git binary patches). Exit 0 with the patch on stdout (or
 * in FILE), 2 for bad usage (an unknown run, a bad step, no checkpoints).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultHome } from '../../runtime/config/home';
import { CheckpointStore } from '../../runtime/runs/checkpoint-store';
import type { RunStore } from '../../runtime/runs/run-store';
import { WorkspaceFiles } from '../../runtime/timetravel/workspace-files';
import {
  WorkspaceHistory,
  WorkspaceHistoryError,
} from '../../runtime/timetravel/workspace-history';
import { parseCommandArgs } from '../parse-args';
import { resolveRunRef } from '../run-ref';
import { EXIT, UsageError } from '../usage-error';

const USAGE = 'usage: workbench runs patch RUN [--from N] [--to M] [-o FILE]';

function stepOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,7}$/.test(value)) {
    throw new UsageError(
      `--${name} must be a step number (0: where the run started), not "${value}"`,
    );
  }
  return Number(value);
}

export function runsPatchCommand(args: string[], openStore: () => RunStore): number {
  const { values, positionals } = parseCommandArgs('runs patch', args, {
    from: { type: 'string' },
    to: { type: 'string' },
    output: { type: 'string', short: 'o' },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const from = stepOption(values.from, 'from');
  const to = stepOption(values.to, 'to');
  if (from !== undefined && to !== undefined && from > to) {
    throw new UsageError(`--from ${from} is after --to ${to}`);
  }
  const store = openStore();
  try {
    const runId = resolveRunRef(positionals[0]!, store.list());
    const checkpoints = new CheckpointStore(join(defaultHome(), 'runs'));
    const history = new WorkspaceHistory(checkpoints, (id) => {
      const forkOf = store.summary(id)?.forkOf;
      return forkOf ? { forkOf } : undefined;
    });
    const steps = history.steps(runId);
    if (steps.length === 0) {
      throw new UsageError(
        `run ${runId} has no sandbox checkpoints: its files were not recorded (no sandbox, or [history] checkpoints = false)`,
      );
    }
    const patch = new WorkspaceFiles(history).patch(runId, from, to);
    if (values.output) {
      writeFileSync(values.output, patch.patch);
      process.stderr.write(
        `Wrote the change of run ${runId} from step ${patch.from} to step ${patch.to} (${patch.files} files) to ${values.output}\n`,
      );
    } else {
      process.stdout.write(patch.patch);
    }
    return EXIT.finished;
  } catch (error) {
    if (error instanceof WorkspaceHistoryError) throw new UsageError(error.message);
    throw error;
  } finally {
    store.close();
  }
}
