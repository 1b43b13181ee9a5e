/**
 * What changed in the workspace between two checkpoints (issue 32): files added, changed
 * and deleted, with a line diff for text (the `diff` package, as the compare view). A
 * file the later archive holds again with the same bytes is not a change: the snapshot
 * takes files touched within the kernel's coarse ctime clock twice (docs/time-travel.md).
 */
import type { DiffHunkView, FileChangeView, WorkspaceEntryKind } from '@shared/domain/files';
import type { CheckpointManifestEntry } from '../runs/checkpoint-store';
import { lineHunks } from './line-hunks';
import type { StateFile, WorkspaceHistory, WorkspaceState } from './workspace-history';

/** larger texts are shown as changed without a line diff */
export const LINE_DIFF_LIMIT = 8 * 1024 * 1024;
const DIFF_TIMEOUT_MS = 2_000;

export interface RawChange {
  path: string;
  change: 'added' | 'changed' | 'deleted';
  before?: StateFile;
  after?: StateFile;
}

export function entryKind(kind: CheckpointManifestEntry['kind']): WorkspaceEntryKind {
  return kind === 'f' ? 'file' : kind === 'd' ? 'folder' : kind === 'l' ? 'symlink' : 'other';
}

/**
 * The entries that differ between two states, by path, sorted. Folders count only when
 * added or deleted. With `onlyArchived`, the later state is one checkpoint after the
 * earlier and only what its archive holds can have changed (a fast path for a step).
 */
export function changedEntries(
  history: WorkspaceHistory,
  before: WorkspaceState,
  after: WorkspaceState,
  onlyArchived = false,
): RawChange[] {
  const out: RawChange[] = [];
  for (const [path, file] of after.entries) {
    const old = before.entries.get(path);
    if (!old) {
      out.push({ path, change: 'added', after: file });
      continue;
    }
    if (file.kind === 'd' && old.kind === 'd') continue;
    if (onlyArchived && !after.archived.has(path) && old.kind === file.kind) continue;
    if (differs(history, old, file))
      out.push({ path, change: 'changed', before: old, after: file });
  }
  for (const [path, file] of before.entries) {
    if (!after.entries.has(path)) out.push({ path, change: 'deleted', before: file });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function differs(history: WorkspaceHistory, a: StateFile, b: StateFile): boolean {
  if (a.kind !== b.kind || a.size !== b.size) return true;
  if ((a.skipped === undefined) !== (b.skipped === undefined)) return true;
  if ((a.mode & 0o111) !== (b.mode & 0o111)) return true;
  if (a.source && b.source && a.source.entry === b.source.entry) return false;
  return !history.read(a).equals(history.read(b));
}

/** Text: valid UTF-8 without NUL bytes. */
export function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A change with its line diff (text files), as the UI and `runs diff` show it. */
export function describeChange(history: WorkspaceHistory, raw: RawChange): FileChangeView {
  const file = raw.after ?? raw.before!;
  const kind = entryKind(file.kind);
  const base: FileChangeView = {
    path: raw.path,
    change: raw.change,
    kind,
    sizeBefore: raw.before?.size ?? 0,
    sizeAfter: raw.after?.size ?? 0,
    isBinary: false,
    added: 0,
    removed: 0,
  };
  if (kind === 'folder' || kind === 'other') return base;
  const skipped = raw.after?.skipped ?? raw.before?.skipped;
  if (skipped !== undefined) return { ...base, note: `not in the snapshots (${skipped})` };
  const a = raw.before ? history.read(raw.before) : Buffer.alloc(0);
  const b = raw.after ? history.read(raw.after) : Buffer.alloc(0);
  if (!isText(a) || !isText(b)) return { ...base, isBinary: true };
  if (a.length + b.length > LINE_DIFF_LIMIT) {
    return { ...base, note: 'too large for a line diff' };
  }
  const hunks = lineDiff(a.toString('utf8'), b.toString('utf8'));
  if (!hunks) return { ...base, note: 'too different for a line diff in time' };
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const line of h.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { ...base, hunks, added, removed };
}

/**
 * Unified-diff hunks (3 lines of context) with git's numbering: an empty side starts at
 * line 0. Undefined when the diff does not finish in time.
 */
export function lineDiff(a: string, b: string): DiffHunkView[] | undefined {
  return lineHunks(a, b, { context: 3, timeoutMs: DIFF_TIMEOUT_MS });
}
