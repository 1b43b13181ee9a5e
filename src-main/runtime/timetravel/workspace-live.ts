/**
 * The running step's files, live (issue 32, docs/time-travel.md "The running step,
 * live"): while a run goes on, the step under way has no checkpoint yet, so its files are
 * read from the session's workspace folder itself, the way the host snapshot reads it
 * (live-walk.ts: held-open folders, links listed and never followed, capped), and marked
 * against the run's last checkpoint. Asked for by the UI every second or two while the
 * panel shows the running step: nothing here runs on the step's path, and a file's
 * comparison is kept until the file changes again.
 *
 * Only a folder on this computer is read: when the sandbox runs on another machine (a
 * remote engine), the workspace lives in its container and the answer says the live view
 * is not available, rather than showing the host folder (which is only the seed).
 */
import { sniffImage } from '../runs/image-sniff';
import type { RunManager } from '../runs/run-manager';
import type { EngineInfo } from '../sandbox/engine';
import { SANDBOX_RESOURCE } from '../sandbox/sandbox-manager';
import type { SessionRegistry } from '../session/session';
import { isDirFdSupported } from '../util/dir-fd';
import type {
  LiveFileView,
  LiveWorkspaceEntry,
  LiveWorkspaceView,
} from '@shared/domain/files-live';
import { listLive, readUpTo, readLive, type LiveRawEntry } from './live-walk';
import { isText } from './workspace-changes';
import { DOWNLOAD_LIMIT, TEXT_SHOWN } from './workspace-files';
import {
  WorkspaceHistoryError,
  type WorkspaceHistory,
  type WorkspaceState,
} from './workspace-history';

/** entries listed at most (a checkpoint tree lists what the snapshot took) */
export const LIVE_ENTRY_LIMIT = 20_000;
/** a file's bytes are compared with the checkpoint's up to this size... */
const COMPARE_FILE_LIMIT = 1024 * 1024;
/** ...and up to this much per listing (the rest are compared on the next ones) */
const COMPARE_BUDGET = 8 * 1024 * 1024;
/** an image is shown up to this size; larger ones are binary (download) */
const IMAGE_LIMIT = 16 * 1024 * 1024;
/** how long an engine's "on this machine" answer is trusted */
const ENGINE_ANSWER_MS = 30_000;

export interface LiveWorkspaceInput {
  runs: Pick<RunManager, 'get' | 'isRunning'>;
  sessions: Pick<SessionRegistry, 'get'>;
  /** the sandbox engine (whether it runs here: then the workspace is its bind mount) */
  engine: { ping(): Promise<EngineInfo> };
  history: WorkspaceHistory;
}

interface RunCache {
  /** the checkpoint compared against, and its state */
  since: number;
  folderId: string | undefined;
  before: WorkspaceState | null;
  /** path -> the version compared, and whether it differed */
  compared: Map<string, { version: string; isChanged: boolean }>;
}

export class LiveWorkspace {
  private readonly caches = new Map<string, RunCache>();
  private engineAnswer: { at: number; isLocal: Promise<boolean> } | undefined;

  constructor(private readonly input: LiveWorkspaceInput) {}

  async tree(runId: string): Promise<LiveWorkspaceView> {
    const listedAt = Date.now();
    const base = { runId, listedAt, since: 0, entries: [], deleted: [] };
    const where = await this.folderOf(runId);
    if ('unavailable' in where) {
      this.caches.delete(runId);
      return { ...base, unavailable: where.unavailable };
    }
    const cache = this.cacheFor(runId);
    const notes: string[] = [];
    if (cache.before === null && cache.since === 0) {
      notes.push('No checkpoint yet: what changed is marked once the first step has one');
    } else if (cache.before === null) {
      notes.push(`The checkpoint of step ${cache.since} cannot be read: nothing is marked`);
    }
    let budget = COMPARE_BUDGET;
    let uncompared = 0;
    const listing = await listLive(where.dir, LIVE_ENTRY_LIMIT, {
      // only a file of the checkpoint's size not compared in this version yet is opened
      wants: (entry) => {
        const old = cache.before?.entries.get(entry.path);
        if (!old || old.kind !== 'f' || old.skipped !== undefined || old.size !== entry.size) {
          return false;
        }
        if (cache.compared.get(entry.path)?.version === entry.version) return false;
        if (entry.size > COMPARE_FILE_LIMIT || entry.size > budget) {
          uncompared++;
          return false;
        }
        return true;
      },
      read: (entry, fd, stat) => {
        const old = cache.before?.entries.get(entry.path);
        if (!old || stat.size !== entry.size) return; // changed since its lstat: next time
        budget -= stat.size;
        const isChanged = !readUpTo(fd, stat.size).equals(this.input.history.read(old));
        cache.compared.set(entry.path, { version: entry.version, isChanged });
      },
    });
    const entries = listing.entries.map((e) => this.marked(e, cache));
    const seen = new Set(listing.entries.map((e) => e.path));
    const deleted =
      cache.before && !listing.isTruncated
        ? [...cache.before.entries.keys()].filter((p) => !seen.has(p)).sort()
        : [];
    if (uncompared > 0) {
      notes.push(
        `${uncompared} file(s) of the same size as at the checkpoint were not compared (too large)`,
      );
    }
    if (listing.tooDeep > 0) {
      notes.push(`${listing.tooDeep} folder(s) nested too deep were not opened`);
    }
    return {
      ...base,
      since: cache.since,
      entries,
      deleted,
      ...(listing.isTruncated ? { truncatedAt: LIVE_ENTRY_LIMIT } : {}),
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    };
  }

  async file(runId: string, path: string, download = false): Promise<LiveFileView> {
    const where = await this.folderOf(runId);
    if ('unavailable' in where) throw new WorkspaceHistoryError('unavailable', where.unavailable);
    const readAt = Date.now();
    const found = readLive(where.dir, path, download ? DOWNLOAD_LIMIT : IMAGE_LIMIT);
    if (found.kind === 'symlink') {
      const size = Buffer.byteLength(found.target);
      return { path, readAt, size, kind: 'text', text: found.target, linkTarget: found.target };
    }
    if (found.kind !== 'file') {
      throw new WorkspaceHistoryError(
        found.kind === 'missing' ? 'not_found' : 'unavailable',
        `Run ${runId}'s workspace has no file ${JSON.stringify(path)} now (${found.why})`,
      );
    }
    const { size, bytes } = found;
    if (download) {
      if (size > DOWNLOAD_LIMIT) {
        throw new WorkspaceHistoryError(
          'unavailable',
          `${path} is ${size} bytes: larger than a download from the UI takes`,
        );
      }
      return { path, readAt, size, kind: kindOf(bytes, size), data: bytes.toString('base64') };
    }
    const image = size <= IMAGE_LIMIT ? sniffImage(bytes)?.mimeType : undefined;
    if (image)
      return { path, readAt, size, kind: 'image', mimeType: image, data: bytes.toString('base64') };
    const shown = bytes.subarray(0, Math.min(bytes.length, TEXT_SHOWN));
    const head = textHead(shown, shown.length < size);
    if (!head) return { path, readAt, size, kind: 'binary' };
    const text = head.toString('utf8');
    if (head.length === size) return { path, readAt, size, kind: 'text', text };
    return { path, readAt, size, kind: 'text', text, truncatedAt: text.length };
  }

  /** The folder to read, or why there is none to read. */
  private async folderOf(runId: string): Promise<{ dir: string } | { unavailable: string }> {
    const { runs, sessions } = this.input;
    const summary = runs.get(runId);
    if (!summary) throw new WorkspaceHistoryError('not_found', `No run with id ${runId}`);
    if (!runs.isRunning(runId)) {
      return {
        unavailable: `Run ${runId} is not running: its files are those of its checkpoints`,
      };
    }
    const session = summary.sessionId === undefined ? undefined : sessions.get(summary.sessionId);
    if (!session || session.closed) {
      return { unavailable: `Run ${runId}'s workspace is not open in this app (yet)` };
    }
    if (session.has(SANDBOX_RESOURCE) && !(await this.isEngineLocal())) {
      return {
        unavailable:
          "The sandbox runs on another machine (a remote engine): the workspace lives in its container, and the live view reads only folders on this computer. Each step's files appear here once its checkpoint is taken.",
      };
    }
    if (!isDirFdSupported(session.workspaceDir)) {
      return {
        unavailable:
          "The workspace cannot be read here without following links (the live view needs Linux with /proc): each step's files appear once its checkpoint is taken.",
      };
    }
    return { dir: session.workspaceDir };
  }

  private isEngineLocal(): Promise<boolean> {
    const now = Date.now();
    if (!this.engineAnswer || now - this.engineAnswer.at > ENGINE_ANSWER_MS) {
      const isLocal = this.input.engine.ping().then(
        (info) => info.isLocal,
        () => false, // no answer: nothing says the folder is the container's
      );
      this.engineAnswer = { at: now, isLocal };
    }
    return this.engineAnswer.isLocal;
  }

  /** The run's last checkpoint and what was compared against it (anew when either changes). */
  private cacheFor(runId: string): RunCache {
    const { history } = this.input;
    const since = history.steps(runId).at(-1) ?? 0;
    const folderId = history.folderId(runId);
    const hit = this.caches.get(runId);
    if (hit && hit.since === since && hit.folderId === folderId) return hit;
    let before: WorkspaceState | null = null;
    // before the first checkpoint only a fork knows where it started (a session folder may
    // hold an earlier run's files: nothing can be said to be added)
    if (since > 0 || history.hasOrigin(runId)) {
      try {
        before = history.stateAt(runId, since);
      } catch (error) {
        if (!(error instanceof WorkspaceHistoryError)) throw error;
      }
    }
    const cache: RunCache = { since, folderId, before, compared: new Map() };
    this.caches.set(runId, cache);
    return cache;
  }

  private marked(raw: LiveRawEntry, cache: RunCache): LiveWorkspaceEntry {
    const entry: LiveWorkspaceEntry = {
      path: raw.path,
      kind: raw.kind,
      size: raw.size,
      mtimeMs: raw.mtimeMs,
    };
    if (!cache.before) return entry;
    const old = cache.before.entries.get(raw.path);
    if (!old) return { ...entry, change: 'added' };
    const oldKind = { f: 'file', d: 'folder', l: 'symlink', o: 'other' }[old.kind];
    if (oldKind !== raw.kind) return { ...entry, change: 'changed' };
    if (raw.kind === 'symlink') {
      const isSame =
        old.source !== undefined && this.input.history.read(old).toString() === raw.target;
      return isSame ? entry : { ...entry, change: 'changed' };
    }
    if (raw.kind !== 'file' || old.skipped !== undefined) return entry;
    if (old.size !== raw.size) return { ...entry, change: 'changed' };
    const compared = cache.compared.get(raw.path);
    return compared?.version === raw.version && compared.isChanged
      ? { ...entry, change: 'changed' }
      : entry;
  }
}

/** The text of a head that may cut a character in two at its end (undefined: not text). */
function textHead(head: Buffer, isCut: boolean): Buffer | undefined {
  if (!isCut) return isText(head) ? head : undefined;
  for (let trim = 0; trim <= 3 && trim <= head.length; trim++) {
    const part = head.subarray(0, head.length - trim);
    if (isText(part)) return part;
  }
  return undefined;
}

function kindOf(bytes: Buffer, size: number): LiveFileView['kind'] {
  if (size <= IMAGE_LIMIT && sniffImage(bytes)) return 'image';
  return isText(bytes) ? 'text' : 'binary';
}
