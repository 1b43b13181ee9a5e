/**
 * The workspace as it was at any step, from the run's checkpoints (issue 32): each step's
 * listing says what existed, and each file's bytes are in the newest archive of the
 * step's chain that holds it (checkpoint-store.ts `chain`). Nothing is extracted: the
 * archives' headers are indexed (archive-index.ts) and a file is read from its offset.
 *
 * "The workspace at step N" is what the checkpoint taken after step N holds. A step
 * without a checkpoint (the sandbox was not up yet, or checkpointing stopped) answers with
 * the last checkpoint before it (`asOf`). Before the first checkpoint the workspace is
 * what the run started from: a fork's parent at the fork step, otherwise empty (a run's
 * sandbox starts from an empty folder unless it mounts one, and a mounted folder's state
 * before step 1 is not recorded: its first checkpoint is the baseline).
 *
 * Only records are trusted: a path is looked up in a listing and read through the index,
 * never joined to a folder on disk, so a hostile name in a history cannot reach a file
 * outside its run's archives.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointManifestEntry, CheckpointStore } from '../runs/checkpoint-store';
import { indexArchive, readArchived, type ArchiveIndex, type ArchivedEntry } from './archive-index';

export interface StateFile {
  path: string;
  kind: CheckpointManifestEntry['kind'];
  /** bytes (a symlink: its target's length) */
  size: number;
  /** permission bits from the archive (0 when unknown) */
  mode: number;
  skipped?: string;
  /** where its bytes are (files and symlinks) */
  source?: { index: ArchiveIndex; entry: ArchivedEntry };
}

/** The workspace at one checkpoint: path -> entry, and the step it was taken at (0: the start). */
export interface WorkspaceState {
  step: number;
  entries: Map<string, StateFile>;
  /** paths the checkpoint's own archive holds (candidates for "changed in this step") */
  archived: Set<string>;
}

interface StepRecord {
  step: number;
  isFull: boolean;
}

const MANIFESTS_KEPT = 8;

export class WorkspaceHistoryError extends Error {
  constructor(
    readonly code: 'not_found' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

export interface RunOrigin {
  /** a fork's parent run and step (its files are where this run started) */
  forkOf?: { runId: string; step: number };
}

export class WorkspaceHistory {
  private readonly records = new Map<string, { key: string; record: StepRecord }>();
  private readonly stepLists = new Map<string, { key: string; steps: number[] }>();
  private readonly manifests = new Map<
    string,
    { key: string; manifest: CheckpointManifestEntry[] }
  >();

  constructor(
    private readonly store: CheckpointStore,
    /** where a run started from (a fork's parent), for the state before its first checkpoint */
    private readonly originOf: (runId: string) => RunOrigin | undefined = () => undefined,
  ) {}

  /** Steps that have a checkpoint, oldest first (kept until the run's folder changes). */
  steps(runId: string): number[] {
    const dir = this.store.dirOf(runId);
    let names: string[];
    let key: string;
    try {
      const stat = statSync(dir);
      key = `${stat.mtimeMs}:${stat.ino}`;
      const hit = this.stepLists.get(dir);
      if (hit && hit.key === key) return hit.steps;
      names = readdirSync(dir);
    } catch {
      return [];
    }
    const steps: number[] = [];
    for (const name of names) {
      const match = /^step-(\d+)\.json$/.exec(name);
      if (match) steps.push(Number(match[1]));
    }
    steps.sort((a, b) => a - b);
    this.stepLists.set(dir, { key, steps });
    return steps;
  }

  /** Which folder holds the run's checkpoints now (its inode), undefined when none. */
  folderId(runId: string): string | undefined {
    try {
      return String(statSync(this.store.dirOf(runId)).ino);
    } catch {
      return undefined;
    }
  }

  /** Why a run's checkpoints can no longer be read (evicted), if so. */
  unavailableNote(runId: string): string | undefined {
    return this.store.evictedNote(runId);
  }

  /** Whether the run started from another run's files (a fork of a run with checkpoints). */
  hasOrigin(runId: string): boolean {
    const origin = this.originOf(runId)?.forkOf;
    return origin !== undefined && this.store.has(origin.runId);
  }

  /** The checkpoint a step's files come from: the last at or before it (0: none yet). */
  checkpointFor(runId: string, step: number): number {
    let found = 0;
    for (const s of this.steps(runId)) if (s <= step) found = s;
    return found;
  }

  /** The checkpoint just before `step`'s (0: the start). */
  previousCheckpoint(runId: string, step: number): number {
    return this.checkpointFor(runId, step - 1);
  }

  /**
   * The workspace after `step` (the last checkpoint at or before it). With `only`, the
   * bytes of those paths alone are located (every entry is still listed): what a step's
   * tree needs of the step before it.
   */
  stateAt(
    runId: string,
    step: number,
    options: { only?: ReadonlySet<string>; depth?: number } = {},
  ): WorkspaceState {
    const depth = options.depth ?? 0;
    const note = this.store.evictedNote(runId);
    if (note) throw new WorkspaceHistoryError('unavailable', note);
    const at = this.checkpointFor(runId, step);
    if (at === 0) return this.startOf(runId, depth);
    const dir = this.store.dirOf(runId);
    const manifest = this.manifest(runId, at);
    const chain = this.chainOf(runId, at);
    const entries = new Map<string, StateFile>();
    const unresolved = new Set<string>();
    for (const e of manifest) {
      entries.set(e.path, {
        path: e.path,
        kind: e.kind,
        size: 0,
        mode: 0,
        ...(e.skipped !== undefined ? { skipped: e.skipped } : {}),
      });
      if (e.skipped === undefined && (!options.only || options.only.has(e.path))) {
        unresolved.add(e.path);
      }
    }
    const archived = new Set(indexArchive(join(dir, `step-${at}.tar`)).entries.keys());
    for (let i = chain.length - 1; i >= 0 && unresolved.size > 0; i--) {
      const index = indexArchive(join(dir, `step-${chain[i]}.tar`));
      for (const [path, entry] of index.entries) {
        if (!unresolved.has(path)) continue;
        unresolved.delete(path);
        const file = entries.get(path)!;
        file.mode = entry.mode;
        if (entry.kind === 'f' || entry.kind === 'h' || entry.kind === 'l') {
          file.source = { index, entry };
          file.size = entry.kind === 'h' ? (hardLinkSize(index, entry) ?? 0) : entry.size;
          if (entry.kind === 'l') file.size = Buffer.byteLength(entry.linkTarget ?? '');
        }
      }
    }
    return { step: at, entries, archived };
  }

  /** A file's bytes in a state (a symlink: its target). */
  read(file: StateFile): Buffer {
    if (!file.source) return Buffer.alloc(0);
    if (file.source.entry.kind === 'l') return Buffer.from(file.source.entry.linkTarget ?? '');
    return readArchived(file.source.index, file.source.entry);
  }

  private startOf(runId: string, depth: number): WorkspaceState {
    const origin = this.originOf(runId)?.forkOf;
    // a fork of a fork of ...: bounded, a history could name itself
    if (origin && depth < 32 && this.store.has(origin.runId)) {
      const parent = this.stateAt(origin.runId, origin.step, { depth: depth + 1 });
      return { step: 0, entries: parent.entries, archived: new Set() };
    }
    return { step: 0, entries: new Map(), archived: new Set() };
  }

  private manifest(runId: string, step: number): CheckpointManifestEntry[] {
    const path = join(this.store.dirOf(runId), `step-${step}.json`);
    try {
      const stat = statSync(path);
      const key = `${stat.size}:${stat.mtimeMs}`;
      const hit = this.manifests.get(path);
      if (hit && hit.key === key) return hit.manifest;
      const meta = JSON.parse(readFileSync(path, 'utf8')) as { manifest?: unknown };
      if (!Array.isArray(meta.manifest)) throw new Error('no listing');
      const manifest = (meta.manifest as CheckpointManifestEntry[]).filter(
        (e) => typeof e?.path === 'string' && e.path !== '',
      );
      // the listings last asked for: a tree and its step before, a diff's two sides
      if (this.manifests.size >= MANIFESTS_KEPT) {
        this.manifests.delete(this.manifests.keys().next().value as string);
      }
      this.manifests.set(path, { key, manifest });
      return manifest;
    } catch (error) {
      throw new WorkspaceHistoryError(
        'unavailable',
        `Run ${runId}: the checkpoint of step ${step} cannot be read (${(error as Error).message})`,
      );
    }
  }

  /** Steps whose archives rebuild `step`: the last full one at or before it, then each after. */
  private chainOf(runId: string, step: number): number[] {
    const steps = this.steps(runId).filter((s) => s <= step);
    let start = steps.length - 1;
    while (start > 0 && !this.record(runId, steps[start]!).isFull) start--;
    if (start < 0 || !this.record(runId, steps[start]!).isFull) {
      throw new WorkspaceHistoryError(
        'unavailable',
        `Run ${runId}: the snapshots before step ${step} are incomplete`,
      );
    }
    return steps.slice(start);
  }

  /**
   * Whether a step's archive is a full one. The record starts with it (the recorder writes
   * `isFull` before the listing): the first block is read, not the whole listing, so
   * walking back a 1,000-step chain does not parse 1,000 listings.
   */
  private record(runId: string, step: number): StepRecord {
    const path = join(this.store.dirOf(runId), `step-${step}.json`);
    const stat = statSync(path);
    const key = `${stat.size}:${stat.mtimeMs}`;
    const hit = this.records.get(path);
    if (hit && hit.key === key) return hit.record;
    const head = Buffer.alloc(1024);
    const fd = openSync(path, 'r');
    let n: number;
    try {
      n = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
    const text = head.toString('utf8', 0, n);
    const manifestAt = text.indexOf('"manifest"');
    const match = /"isFull":(true|false)/.exec(manifestAt < 0 ? text : text.slice(0, manifestAt));
    const isFull = match
      ? match[1] === 'true'
      : (JSON.parse(readFileSync(path, 'utf8')) as { isFull?: boolean }).isFull === true;
    const record = { step, isFull };
    this.records.set(path, { key, record });
    return record;
  }
}

function hardLinkSize(index: ArchiveIndex, entry: ArchivedEntry): number | undefined {
  return index.entries.get(entry.linkTarget ?? '')?.size;
}
