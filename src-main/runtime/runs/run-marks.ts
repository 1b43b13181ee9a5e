/**
 * What the history knows of a run beside its log, not from its events: the title the user
 * gave it (`<runId>.title`) and whether it came from an exported file (`<runId>.imported`).
 * Both live in their own files, because the index is only a cache rebuilt from the logs;
 * they are re-read with the folder and laid over every summary the store hands out.
 */
import type { RunSummary } from '@shared/ipc';
import { isRunId } from '@shared/domain/ids';
import { importedRunOf, markImported, readTitle, writeTitle } from './run-titles';

const TITLE_EXT = '.title';

export class RunMarks {
  private readonly titles = new Map<string, string>();
  private readonly imported = new Set<string>();

  constructor(private readonly dir: string) {}

  /** Starts a new reading of the folder. */
  clear(): void {
    this.titles.clear();
    this.imported.clear();
  }

  /** Takes in one name of the folder's listing; true when it was a mark (not a log). */
  take(name: string): boolean {
    const importedRun = importedRunOf(name);
    if (importedRun !== undefined) {
      if (isRunId(importedRun)) this.imported.add(importedRun);
      return true;
    }
    if (!name.endsWith(TITLE_EXT)) return false;
    const runId = name.slice(0, -TITLE_EXT.length);
    const title = isRunId(runId) ? readTitle(this.dir, runId) : undefined;
    if (title !== undefined) this.titles.set(runId, title);
    return true;
  }

  rename(runId: string, title: string): void {
    const clean = writeTitle(this.dir, runId, title);
    if (clean === undefined) this.titles.delete(runId);
    else this.titles.set(runId, clean);
  }

  markImported(runId: string, source: string): void {
    markImported(this.dir, runId, source);
    this.imported.add(runId);
  }

  /** The run left the history (its files are removed by the caller). */
  forget(runId: string): void {
    this.titles.delete(runId);
    this.imported.delete(runId);
  }

  /** The summary with the run's own title and import mark, never the index's copies. */
  apply(summary: RunSummary): RunSummary {
    const { title: _cached, isImported: _imported, ...rest } = summary;
    const title = this.titles.get(summary.runId);
    return {
      ...rest,
      ...(title === undefined ? {} : { title }),
      ...(this.imported.has(summary.runId) ? { isImported: true } : {}),
    };
  }
}
