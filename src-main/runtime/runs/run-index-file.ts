/**
 * `index.json` of the run history: the summaries of every run, so listing runs does not
 * read every log. Only a cache: missing, damaged or stale, it is rebuilt from the logs.
 * Updates are held back a little and written together, atomically.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSummary } from '@shared/ipc';
import { writeFileAtomic } from '../config/atomic-write';

const INDEX_FILE = 'index.json';
/** 2: summaries carry `health` and `terminateStatus` (an older index is rebuilt, quietly). */
const INDEX_VERSION = 2;

export interface IndexEntry {
  summary: RunSummary;
  /** size of the log when the summary was taken: a different size means re-read */
  size: number;
}

export class RunIndexFile {
  readonly entries = new Map<string, IndexEntry>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dirty = false;

  constructor(
    private readonly dir: string,
    private readonly options: { delayMs: number; warn(message: string): void },
  ) {}

  get isDirty(): boolean {
    return this.dirty;
  }

  markDirty(): void {
    this.dirty = true;
  }

  /** Writes now what is pending, if anything (the store is closing). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dirty) this.writeNow();
  }

  /** Writes the index soon, with whatever else changes meanwhile. */
  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writeNow();
    }, this.options.delayMs);
    this.timer.unref?.();
  }

  writeNow(): void {
    this.dirty = false;
    const runs = [...this.entries.values()];
    try {
      writeFileAtomic(
        join(this.dir, INDEX_FILE),
        JSON.stringify({ version: INDEX_VERSION, runs }),
        0o600,
      );
    } catch (error) {
      this.options.warn(
        `The run index could not be saved (${(error as Error).message}); it is rebuilt next start`,
      );
    }
  }

  /** Returns false when the index is missing or damaged (it is then rebuilt). */
  load(warnings: string[]): boolean {
    const path = join(this.dir, INDEX_FILE);
    if (!existsSync(path)) return false;
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as {
        version?: unknown;
        runs?: unknown;
      };
      // An index from an older version lacks newer summary fields: rebuild, nothing is wrong.
      if (typeof parsed.version === 'number' && parsed.version < INDEX_VERSION) return false;
      if (parsed.version !== INDEX_VERSION || !Array.isArray(parsed.runs))
        throw new Error('unknown format');
      for (const entry of parsed.runs as IndexEntry[]) {
        if (typeof entry?.summary?.runId !== 'string' || typeof entry.size !== 'number') {
          throw new Error('an entry is malformed');
        }
        this.entries.set(entry.summary.runId, entry);
      }
      return true;
    } catch (error) {
      this.entries.clear();
      warnings.push(
        `The run index ${path} is damaged (${(error as Error).message}); rebuilt from the run logs`,
      );
      return false;
    }
  }
}
