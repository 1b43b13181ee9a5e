/**
 * `workbench runs rename RUN TITLE...`: the history's rename from the command line (the
 * UI's `runs:rename`). `runs delete` needs the runtime (snapshots, a fork's container):
 * runs-lineage.ts.
 */
import type { RunStore } from '../../runtime/runs/run-store';
import { terminalSafe } from '../terminal-text';
import { resolveRunRef } from '../run-ref';
import { EXIT, HelpRequested, UsageError } from '../usage-error';
import { asksForHelp } from '../usage';

export function renameCommand(args: string[], openStore: () => RunStore): number {
  if (asksForHelp(args)) throw new HelpRequested('runs rename');
  const [ref, ...words] = args;
  if (!ref || words.length === 0) throw new UsageError('usage: workbench runs rename RUN TITLE');
  const store = openStore();
  try {
    const runId = resolveRunRef(ref, store.list());
    const summary = store.rename(runId, words.join(' '));
    if (!summary) throw new UsageError(`no run with id ${runId} (see: workbench runs list)`);
    process.stderr.write(
      summary.title
        ? `Renamed ${runId}: ${terminalSafe(summary.title)}\n`
        : `Removed the title of ${runId}\n`,
    );
    return EXIT.finished;
  } finally {
    store.close();
  }
}
