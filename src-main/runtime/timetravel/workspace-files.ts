/**
 * What the host answers about a run's files (issue 32): the tree at a step with what the
 * step changed, one file at a step, the changes between two steps (one step's, or the
 * run's whole change), and that change as a patch for `git apply`. Each request names a
 * step; the files come from the checkpoint at or before it (workspace-history.ts).
 */
import type {
  WorkspaceChangesView,
  WorkspaceEntryView,
  WorkspaceFileView,
  WorkspacePatchView,
  WorkspaceTreeView,
} from '@shared/domain/files';
import { sniffImage } from '../runs/image-sniff';
import { changedEntries, describeChange, entryKind, isText } from './workspace-changes';
import { gitPatch } from './git-patch';
import { StepChangeCounter } from './step-change-counts';
import { WorkspaceHistoryError, type WorkspaceHistory } from './workspace-history';

/** a text file shown past this many characters is cut */
export const TEXT_SHOWN = 2 * 1024 * 1024;
/** a binary file's bytes are sent (a download) up to this */
export const DOWNLOAD_LIMIT = 64 * 1024 * 1024;

export class WorkspaceFiles {
  /** each step's count of changed files (the timeline's chips), kept per checkpoint */
  readonly counts: StepChangeCounter;

  constructor(readonly history: WorkspaceHistory) {
    this.counts = new StepChangeCounter(history);
  }

  tree(runId: string, step: number): WorkspaceTreeView {
    const checkpoints = this.history.steps(runId);
    const after = this.history.stateAt(runId, step);
    // the step before: its listing, and the bytes of what this step's archive holds
    const changes =
      after.step === step
        ? changedEntries(this.history, this.before(runId, step, after.archived), after, true)
        : [];
    const byPath = new Map(changes.map((c) => [c.path, c.change]));
    const entries: WorkspaceEntryView[] = [];
    for (const file of after.entries.values()) {
      const change = byPath.get(file.path);
      entries.push({
        path: file.path,
        kind: entryKind(file.kind),
        size: file.size,
        ...(change === 'added' || change === 'changed' ? { change } : {}),
        ...(file.skipped !== undefined ? { skipped: file.skipped } : {}),
      });
    }
    entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const note =
      after.step === step
        ? undefined
        : after.step === 0
          ? `No checkpoint at or before step ${step}: the files are where the run started`
          : `Step ${step} has no checkpoint: the files are those of step ${after.step}`;
    return {
      runId,
      step,
      asOf: after.step,
      entries,
      deleted: changes.filter((c) => c.change === 'deleted').map((c) => c.path),
      checkpoints,
      ...(note ? { note } : {}),
    };
  }

  file(runId: string, step: number, path: string, download = false): WorkspaceFileView {
    const state = this.history.stateAt(runId, step);
    const file = state.entries.get(path);
    if (!file || (file.kind !== 'f' && file.kind !== 'l')) {
      throw new WorkspaceHistoryError(
        'not_found',
        `Run ${runId} has no file ${JSON.stringify(path)} at step ${step}`,
      );
    }
    if (file.skipped !== undefined) {
      throw new WorkspaceHistoryError(
        'unavailable',
        `${path} at step ${step} is not in the snapshots (${file.skipped})`,
      );
    }
    const base = { path, step, asOf: state.step, size: file.size };
    if (download && file.size > DOWNLOAD_LIMIT) {
      throw new WorkspaceHistoryError(
        'unavailable',
        `${path} is ${file.size} bytes: larger than a download from the UI takes; use workbench runs patch`,
      );
    }
    const bytes = this.history.read(file);
    const image = sniffImage(bytes)?.mimeType;
    if (image && !download) {
      return { ...base, kind: 'image', mimeType: image, data: bytes.toString('base64') };
    }
    if (!download && isText(bytes)) {
      const text = bytes.toString('utf8');
      return text.length > TEXT_SHOWN
        ? { ...base, kind: 'text', text: text.slice(0, TEXT_SHOWN), truncatedAt: TEXT_SHOWN }
        : { ...base, kind: 'text', text };
    }
    return {
      ...base,
      kind: image ? 'image' : isText(bytes) ? 'text' : 'binary',
      ...(download ? { data: bytes.toString('base64') } : {}),
      ...(image ? { mimeType: image } : {}),
    };
  }

  /** From `from` (default: the checkpoint before `to`'s) to `to`. */
  changes(runId: string, to: number, from?: number): WorkspaceChangesView {
    const after = this.history.stateAt(runId, to);
    const before = from === undefined ? this.before(runId, to) : this.history.stateAt(runId, from);
    const isOneStep = from === undefined && after.step === to;
    const raw = isOneStep || from !== undefined ? changedEntries(this.history, before, after) : [];
    return {
      runId,
      from: before.step,
      to: after.step,
      files: raw.map((c) => describeChange(this.history, c)),
    };
  }

  /** The change from `from` (default: where the run started) to `to` (default: the last checkpoint). */
  patch(runId: string, from = 0, to?: number): WorkspacePatchView {
    const last = to ?? this.history.steps(runId).at(-1) ?? 0;
    const before = this.history.stateAt(runId, from);
    const after = this.history.stateAt(runId, last);
    const raw = changedEntries(this.history, before, after);
    return {
      runId,
      from: before.step,
      to: after.step,
      patch: gitPatch(this.history, raw),
      files: raw.filter((c) => c.after?.kind !== 'd' && c.before?.kind !== 'd').length,
    };
  }

  /** The files before `step` ran: the previous checkpoint, or where the run started. */
  private before(runId: string, step: number, only?: ReadonlySet<string>) {
    const previous = this.history.previousCheckpoint(runId, step);
    return this.history.stateAt(runId, previous, only ? { only } : {});
  }
}
