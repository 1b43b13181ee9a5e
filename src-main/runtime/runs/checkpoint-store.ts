/**
 * Where a run's sandbox snapshots live: beside its history, in `<runs>/<runId>.checkpoints/`,
 * one `step-N.tar` (the files changed since the previous checkpoint, or all of them for the
 * first one of a container) and one `step-N.json` (the listing of the workspace, so files
 * deleted since are known, and what was still running). They count in the run's size, go
 * with the run when it is deleted, and `[history] snapshot_budget` evicts the oldest
 * runs' snapshots first, leaving a note that says so (docs/time-travel.md).
 *
 * A step's snapshot is written under a temporary name (`step-N.tar.<pid>.partial`) and
 * becomes `step-N.tar` only with its record beside it (issue 24 item 3): a snapshot cut
 * short by a full disk, a cap or a crash is never listed or used, and `sweep` removes
 * what a crashed process left. A host snapshot's bytes are staged first in
 * `step-N.stage.<pid>.partial/` (issue 27: the archive is written beside the next step),
 * a partial too.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isRunId } from '@shared/domain/ids';

export interface CheckpointManifestEntry {
  path: string;
  /** f file, d folder, l symlink, o other */
  kind: 'f' | 'd' | 'l' | 'o';
  /** why the snapshot left it out (too large for a cap, too deeply nested): a restore does not have it */
  skipped?: string;
}

export interface CheckpointMeta {
  agent: string;
  step: number;
  /** the archive holds every file, not only the ones changed since the checkpoint before */
  isFull: boolean;
  bytes: number;
  manifest: CheckpointManifestEntry[];
  /** processes left running at the boundary: a fork does not get them back */
  processes: string[];
  takenAt: number;
  /** the container it was taken in (a new container starts a new chain) */
  containerId: string;
}

const SUFFIX = '.checkpoints';
const EVICTED = 'EVICTED';
const PARTIAL = /^step-\d+\.(tar|json|stage)\.(\d+)\.partial$/;
const ARCHIVE = /^step-(\d+)\.tar$/;
/** An archive without its record this old is a crash's leftover, not a commit in progress. */
const ORPHAN_AGE_MS = 60_000;

export class CheckpointStore {
  constructor(readonly dir: string) {}

  dirOf(runId: string): string {
    if (!isRunId(runId)) throw new Error(`Invalid run id: ${runId}`);
    return join(this.dir, `${runId}${SUFFIX}`);
  }

  /** Where the archive of this step goes (the folder is created). */
  archivePath(runId: string, step: number): string {
    const dir = this.dirOf(runId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return join(dir, `step-${step}.tar`);
  }

  /** Where this step's archive is written first (the folder is created); `commit` makes it the step's. */
  partialArchivePath(runId: string, step: number): string {
    return `${this.archivePath(runId, step)}.${process.pid}.partial`;
  }

  /** The folder (not made yet) where this step's file bytes are staged until its archive is written. */
  stagingPath(runId: string, step: number): string {
    return join(this.dirOf(runId), `step-${step}.stage.${process.pid}.partial`);
  }

  /**
   * Makes a written snapshot the step's: its record is written under a temporary name,
   * then the archive and the record take their names, in that order (a record always has
   * its archive). A failure (a full disk) removes both and throws.
   */
  commit(runId: string, meta: CheckpointMeta, partialArchive: string): void {
    const archive = join(this.dirOf(runId), `step-${meta.step}.tar`);
    const record = join(this.dirOf(runId), `step-${meta.step}.json`);
    const partialRecord = `${record}.${process.pid}.partial`;
    try {
      writeFileSync(partialRecord, JSON.stringify(meta), { mode: 0o600 });
      renameSync(partialArchive, archive);
      renameSync(partialRecord, record);
    } catch (error) {
      this.discard(partialArchive, partialRecord, archive);
      throw error;
    }
  }

  /** Removes what a snapshot that did not complete wrote. */
  discard(...paths: string[]): void {
    for (const path of paths) rmSync(path, { force: true });
  }

  /** Rewrites a step's record (what was running, learnt after it), never leaving half of one. */
  save(runId: string, meta: CheckpointMeta): void {
    const record = join(this.dirOf(runId), `step-${meta.step}.json`);
    const partial = `${record}.${process.pid}.partial`;
    try {
      writeFileSync(partial, JSON.stringify(meta), { mode: 0o600 });
      renameSync(partial, record);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
  }

  /**
   * Removes crash leftovers in every run's folder: partial files of processes that no
   * longer run, and archives whose record never came (older than a minute: a commit in
   * progress renames the record a moment after the archive). Returns what went.
   */
  sweep(now = Date.now()): string[] {
    const removed: string[] = [];
    for (const runId of this.runs()) {
      const dir = this.dirOf(runId);
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      const present = new Set(names);
      for (const name of names) {
        const partial = PARTIAL.exec(name);
        const archive = ARCHIVE.exec(name);
        let isLeftover = false;
        if (partial) isLeftover = !isRunning(Number(partial[2]));
        else if (archive && !present.has(`step-${archive[1]}.json`)) {
          try {
            isLeftover = now - statSync(join(dir, name)).mtimeMs > ORPHAN_AGE_MS;
          } catch {
            isLeftover = false;
          }
        }
        if (!isLeftover) continue;
        rmSync(join(dir, name), { recursive: true, force: true });
        removed.push(join(dir, name));
      }
    }
    return removed;
  }

  /** The run's checkpoints, oldest first (an archive without its record is not one). */
  list(runId: string): CheckpointMeta[] {
    let names: string[];
    try {
      names = readdirSync(this.dirOf(runId));
    } catch {
      return [];
    }
    const metas: CheckpointMeta[] = [];
    for (const name of names) {
      if (!/^step-\d+\.json$/.test(name)) continue;
      try {
        metas.push(
          JSON.parse(readFileSync(join(this.dirOf(runId), name), 'utf8')) as CheckpointMeta,
        );
      } catch {
        // A record cut short by a crash: that step cannot be restored, the others can.
      }
    }
    return metas.sort((a, b) => a.step - b.step);
  }

  /**
   * The archives that rebuild the workspace at `step`, in the order to apply them: the
   * last full one at or before it and every one after it up to `step`.
   */
  chain(runId: string, step: number): { metas: CheckpointMeta[]; archives: string[] } {
    const note = this.evictedNote(runId);
    if (note) throw new Error(note);
    const all = this.list(runId).filter((m) => m.step <= step);
    const target = all.at(-1);
    if (!target || target.step !== step) {
      throw new Error(`Run ${runId} has no sandbox snapshot at step ${step}`);
    }
    let start = all.length - 1;
    while (start > 0 && !all[start]!.isFull) start--;
    if (!all[start]!.isFull)
      throw new Error(`Run ${runId}: the snapshots before step ${step} are incomplete`);
    const metas = all.slice(start);
    return { metas, archives: metas.map((m) => join(this.dirOf(runId), `step-${m.step}.tar`)) };
  }

  /** Bytes of the run's snapshots on disk. */
  sizeOf(runId: string): number {
    let total = 0;
    let names: string[];
    try {
      names = readdirSync(this.dirOf(runId));
    } catch {
      return 0;
    }
    for (const name of names) {
      try {
        total += statSync(join(this.dirOf(runId), name)).size;
      } catch {
        // removed meanwhile
      }
    }
    return total;
  }

  /** Run ids that have a snapshot folder, oldest first (run ids sort by time). */
  runs(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith(SUFFIX))
      .map((n) => n.slice(0, -SUFFIX.length))
      .filter(isRunId)
      .sort();
  }

  /**
   * Keeps all snapshots together under `budget` bytes: the oldest runs' snapshots go
   * first (never `keep`'s, the run taking them), each leaving a note. Returns what went.
   */
  enforceBudget(budget: number, keep: string): { runId: string; bytes: number }[] {
    const runs = this.runs();
    const sizes = new Map(runs.map((r) => [r, this.sizeOf(r)]));
    let total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const evicted: { runId: string; bytes: number }[] = [];
    for (const runId of runs) {
      if (total <= budget) break;
      if (runId === keep || this.evictedNote(runId)) continue;
      const bytes = sizes.get(runId) ?? 0;
      rmSync(this.dirOf(runId), { recursive: true, force: true });
      mkdirSync(this.dirOf(runId), { recursive: true, mode: 0o700 });
      writeFileSync(
        join(this.dirOf(runId), EVICTED),
        `Its sandbox snapshots (${formatBytes(bytes)}) were removed on ${new Date().toISOString()} ` +
          `to keep all snapshots under [history] snapshot_budget (${formatBytes(budget)}); ` +
          'it can no longer be forked with its files.',
      );
      total -= bytes;
      evicted.push({ runId, bytes });
    }
    return evicted;
  }

  /** Why the run's snapshots are gone, when the budget evicted them. */
  evictedNote(runId: string): string | undefined {
    try {
      return `Run ${runId}: ${readFileSync(join(this.dirOf(runId), EVICTED), 'utf8')}`;
    } catch {
      return undefined;
    }
  }

  has(runId: string): boolean {
    return existsSync(this.dirOf(runId));
  }

  /** Removes the run's snapshots (the run is deleted). */
  remove(runId: string): void {
    rmSync(this.dirOf(runId), { recursive: true, force: true });
  }
}

/** Whether a process with this id runs (a partial file of a live one is a snapshot in progress). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}
