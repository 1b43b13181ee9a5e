/**
 * Where two runs' workspaces differ (issue 32 item 5): at the end (each run's last
 * checkpoint) or at a pair of aligned steps, and the first aligned pair where they part.
 * Both sides come from the checkpoint listings (workspace-history.ts): a path only one
 * side lists is added in B or missing in B; a path both list differs when its kind,
 * size, executable bit or content hash does. Nothing is extracted: a file's bytes are
 * read from its archive's offset and hashed (SHA-256), and a hash is kept per archived
 * entry, so walking many aligned steps hashes each archived file once.
 */
import { createHash } from 'node:crypto';
import type { AlignedStepPair } from '@shared/compare/aligned-steps';
import type { WorkspaceDifference, WorkspacesDiffView } from '@shared/domain/files';
import type { ArchivedEntry } from './archive-index';
import { entryKind } from './workspace-changes';
import {
  WorkspaceHistoryError,
  type StateFile,
  type WorkspaceHistory,
  type WorkspaceState,
} from './workspace-history';

/** differences listed at most (the count past it is `truncatedAt`) */
export const WORKSPACE_DIFFERENCES_LISTED = 500;

export interface WorkspaceSide {
  runId: string;
  /** a step of the run; undefined: its end (the last checkpoint) */
  step?: number;
}

export interface WorkspaceDivergence extends AlignedStepPair {
  diff: WorkspacesDiffView;
}

export class WorkspaceComparer {
  private readonly hashes = new WeakMap<ArchivedEntry, string>();

  constructor(readonly history: WorkspaceHistory) {}

  /** The files that differ between A's workspace and B's, each at its step (default: the end). */
  diff(
    a: WorkspaceSide,
    b: WorkspaceSide,
    limit = WORKSPACE_DIFFERENCES_LISTED,
  ): WorkspacesDiffView {
    const stepA = a.step ?? this.endOf(a.runId);
    const stepB = b.step ?? this.endOf(b.runId);
    const sides = {
      a: { runId: a.runId, step: stepA, asOf: 0 },
      b: { runId: b.runId, step: stepB, asOf: 0 },
    };
    const unavailable = this.unavailable(a.runId) ?? this.unavailable(b.runId);
    if (unavailable) return { ...sides, files: [], unavailable };
    let stateA: WorkspaceState;
    let stateB: WorkspaceState;
    try {
      stateA = this.history.stateAt(a.runId, stepA);
      stateB = this.history.stateAt(b.runId, stepB);
    } catch (error) {
      if (!(error instanceof WorkspaceHistoryError)) throw error;
      return { ...sides, files: [], unavailable: error.message };
    }
    sides.a.asOf = stateA.step;
    sides.b.asOf = stateB.step;
    const files = this.differences(stateA, stateB);
    return {
      ...sides,
      files: files.slice(0, limit),
      ...(files.length > limit ? { truncatedAt: limit } : {}),
    };
  }

  /**
   * The first aligned pair of steps whose workspaces differ, or null when none does (or
   * a side has no recorded files). Pairs answered by the same two checkpoints as the
   * pair before are not compared again.
   */
  firstDivergence(
    runA: string,
    runB: string,
    pairs: readonly AlignedStepPair[],
  ): WorkspaceDivergence | null {
    if (this.unavailable(runA) ?? this.unavailable(runB)) return null;
    let last = '';
    for (const pair of pairs) {
      const key = `${this.history.checkpointFor(runA, pair.stepA)}:${this.history.checkpointFor(runB, pair.stepB)}`;
      if (key === last) continue;
      last = key;
      const diff = this.diff({ runId: runA, step: pair.stepA }, { runId: runB, step: pair.stepB });
      if (diff.unavailable) return null;
      if (diff.files.length > 0) return { ...pair, diff };
    }
    return null;
  }

  /** The run's last checkpoint (0: none; then its files are where it started). */
  private endOf(runId: string): number {
    return this.history.steps(runId).at(-1) ?? 0;
  }

  /** Why a run's files cannot be compared: none recorded, or evicted. */
  private unavailable(runId: string): string | undefined {
    const note = this.history.unavailableNote(runId);
    if (note) return note;
    if (this.history.steps(runId).length === 0 && !this.history.hasOrigin(runId)) {
      return `Run ${runId} has no sandbox checkpoints: its files were not recorded`;
    }
    return undefined;
  }

  private differences(a: WorkspaceState, b: WorkspaceState): WorkspaceDifference[] {
    const out: WorkspaceDifference[] = [];
    for (const [path, fileB] of b.entries) {
      const fileA = a.entries.get(path);
      if (!fileA) {
        out.push({
          path,
          difference: 'added',
          kind: entryKind(fileB.kind),
          ...this.side('B', fileB),
        });
      } else if (this.differ(fileA, fileB)) {
        out.push({
          path,
          difference: 'changed',
          kind: entryKind(fileB.kind),
          ...this.side('A', fileA),
          ...this.side('B', fileB),
        });
      }
    }
    for (const [path, fileA] of a.entries) {
      if (!b.entries.has(path)) {
        out.push({
          path,
          difference: 'missing',
          kind: entryKind(fileA.kind),
          ...this.side('A', fileA),
        });
      }
    }
    return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  private side(name: 'A' | 'B', file: StateFile): Partial<WorkspaceDifference> {
    if (file.kind === 'd') return {};
    const hash = this.hashOf(file);
    return {
      [`size${name}`]: file.size,
      ...(hash !== undefined ? { [`hash${name}`]: hash } : {}),
    };
  }

  private differ(a: StateFile, b: StateFile): boolean {
    if (a.kind !== b.kind) return true;
    if (a.kind === 'd') return false;
    if ((a.skipped === undefined) !== (b.skipped === undefined)) return true;
    if (a.size !== b.size) return true;
    if ((a.mode & 0o111) !== (b.mode & 0o111)) return true;
    // a file left out of both snapshots: its bytes are unknown, its size alone compared
    if (a.skipped !== undefined) return false;
    return this.hashOf(a) !== this.hashOf(b);
  }

  /** SHA-256 of a file's bytes (a symlink: its target), once per archived entry. */
  private hashOf(file: StateFile): string | undefined {
    if (!file.source || file.skipped !== undefined) return undefined;
    const cached = this.hashes.get(file.source.entry);
    if (cached !== undefined) return cached;
    const hash = createHash('sha256').update(this.history.read(file)).digest('hex');
    this.hashes.set(file.source.entry, hash);
    return hash;
  }
}
