/**
 * `workbench runs rename RUN TITLE...` and `workbench runs delete RUN`: the history's
 * rename and delete from the command line (the UI's `runs:rename` / `runs:delete`).
 * A run another process is still writing is not deleted: its owner would recreate it.
 */
import type { RunStore } from '../../runtime/runs/run-store';
import { terminalSafe } from '../terminal-text';
import { resolveRunRef } from '../run-ref';
import { EXIT, UsageError } from '../usage-error';

export function renameCommand(args: string[], openStore: () => RunStore): number {
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

export function deleteCommand(args: string[], openStore: () => RunStore): number {
  const [ref, ...extra] = args;
  if (!ref || extra.length > 0) throw new UsageError('usage: workbench runs delete RUN');
  const store = openStore();
  try {
    const runId = resolveRunRef(ref, store.list());
    const summary = store.summary(runId);
    if (summary && summary.finishedAt === undefined && !summary.isInterrupted) {
      throw new UsageError(`run ${runId} is still running; stop it first`);
    }
    if (!store.remove(runId)) throw new UsageError(`no run with id ${runId}`);
    process.stderr.write(`Deleted ${runId}\n`);
    return EXIT.finished;
  } finally {
    store.close();
  }
}
