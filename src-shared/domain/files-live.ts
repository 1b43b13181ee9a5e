/**
 * The live view of a running run's workspace (issue 32, docs/time-travel.md "The running
 * step, live"): the session's files as they are now, before the step's checkpoint exists.
 * Merged into `RequestMap`, `REQUEST_CHANNELS` and `API_METHODS` by ipc.ts.
 */
import type { WorkspaceEntryKind, WorkspaceFileKind } from './files';

export interface LiveWorkspaceEntry {
  /** relative to the workspace, `/`-separated */
  path: string;
  kind: WorkspaceEntryKind;
  /** bytes (a folder: 0; a symlink: its target's length, the target is never followed) */
  size: number;
  /** last modified (ms since the epoch): a file open in the panel is asked for again when it moves */
  mtimeMs: number;
  /** against the last checkpoint (absent: unchanged, or not compared: `note` says so) */
  change?: 'added' | 'changed';
}

export interface LiveWorkspaceView {
  runId: string;
  /** when the folder was listed (ms since the epoch) */
  listedAt: number;
  /** the checkpoint the changes are against (0: where the run started) */
  since: number;
  entries: LiveWorkspaceEntry[];
  /** paths of the last checkpoint that are gone now */
  deleted: string[];
  /** the listing stopped at this many entries */
  truncatedAt?: number;
  /** why some markers or entries are missing (a budget, a deep nesting) */
  note?: string;
  /**
   * why there is no live view (the run is not running, its workspace lives only in a
   * container on another machine, this system cannot read it safely): `entries` is empty
   */
  unavailable?: string;
}

export interface LiveFileView {
  path: string;
  /** when it was read (ms since the epoch) */
  readAt: number;
  size: number;
  kind: WorkspaceFileKind;
  /** text files: their content (cut at `truncatedAt` characters when larger) */
  text?: string;
  truncatedAt?: number;
  /** images, and any file when asked for (a download): base64 */
  data?: string;
  mimeType?: string;
  /** a symlink: its target (shown as its text; what it points at is never read) */
  linkTarget?: string;
}

/** request channel -> input and output */
export interface FilesLiveRequestMap {
  /** the running run's workspace now, with what changed since its last checkpoint */
  'runs:files-live': { input: { runId: string }; output: LiveWorkspaceView };
  /** one file of the running run's workspace now (its bytes with `download`) */
  'runs:file-live': {
    input: { runId: string; path: string; download?: boolean };
    output: LiveFileView;
  };
}

export const FILES_LIVE_CHANNELS = [
  'runs:files-live',
  'runs:file-live',
] as const satisfies readonly (keyof FilesLiveRequestMap)[];

export const FILES_LIVE_METHODS = {
  getLiveFiles: 'runs:files-live',
  getLiveFile: 'runs:file-live',
} as const satisfies Record<string, keyof FilesLiveRequestMap>;
