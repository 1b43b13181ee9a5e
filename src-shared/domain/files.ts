/**
 * The workspace at a step and what steps changed in it (issue 32, docs/time-travel.md
 * "Files at every step"): what `runs:files`, `runs:file`, `runs:changes` and
 * `runs:patch` answer.
 */

export type WorkspaceEntryKind = 'file' | 'folder' | 'symlink' | 'other';
export type FileChangeKind = 'added' | 'changed' | 'deleted';

export interface WorkspaceEntryView {
  /** relative to the workspace, `/`-separated */
  path: string;
  kind: WorkspaceEntryKind;
  /** bytes (a folder: 0) */
  size: number;
  /** what the step did to it (absent: unchanged) */
  change?: Exclude<FileChangeKind, 'deleted'>;
  /** why the snapshot left it out (a cap): its bytes are not in the history */
  skipped?: string;
}

export interface WorkspaceTreeView {
  runId: string;
  /** the step asked for */
  step: number;
  /** the checkpoint the files come from (the last at or before `step`; 0: the start) */
  asOf: number;
  entries: WorkspaceEntryView[];
  /** paths the step deleted */
  deleted: string[];
  /** steps that have a checkpoint, oldest first */
  checkpoints: number[];
  /** why the files are not what the step left (no checkpoint yet, checkpointing stopped) */
  note?: string;
}

export type WorkspaceFileKind = 'text' | 'image' | 'binary';

export interface WorkspaceFileView {
  path: string;
  step: number;
  asOf: number;
  size: number;
  kind: WorkspaceFileKind;
  /** text files: their content (cut at `truncatedAt` characters when larger) */
  text?: string;
  truncatedAt?: number;
  /** images, and binary files when asked for (a download): base64 */
  data?: string;
  mimeType?: string;
}

export interface DiffHunkView {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** ' ', '-', '+' prefixed lines; '\' for "No newline at end of file" */
  lines: string[];
}

/** Which tool call wrote a change (issue 32 item 3). */
export interface ChangeAttribution {
  step: number;
  toolCallId?: string;
  tool?: string;
  /** exact: the call's own arguments name the file (str_replace_editor); step: one of the step's calls */
  certainty: 'exact' | 'step';
}

export interface FileChangeView {
  path: string;
  change: FileChangeKind;
  kind: WorkspaceEntryKind;
  sizeBefore: number;
  sizeAfter: number;
  isBinary: boolean;
  /** text files: the line diff (absent when too large to diff in time: `note` says so) */
  hunks?: DiffHunkView[];
  added: number;
  removed: number;
  note?: string;
  attribution?: ChangeAttribution[];
}

export interface WorkspaceChangesView {
  runId: string;
  /** the checkpoint compared from (0: where the run started) */
  from: number;
  to: number;
  files: FileChangeView[];
}

/** What one checkpointed step did to the workspace's files (folders not counted). */
export interface StepChangeCount {
  step: number;
  added: number;
  changed: number;
  deleted: number;
}

export interface WorkspacePatchView {
  runId: string;
  from: number;
  to: number;
  /** a unified patch in git's format (binary files as git binary patches) */
  patch: string;
  files: number;
}

/**
 * How one path differs between two runs' workspaces (the compare view, `runs diff`):
 * `added` only B has it, `missing` B lacks it, `changed` both have it with other content
 * (bytes, by SHA-256), another kind, or another executable bit.
 */
export interface WorkspaceDifference {
  path: string;
  difference: 'added' | 'missing' | 'changed';
  kind: WorkspaceEntryKind;
  /** absent on the side that has no such path */
  sizeA?: number;
  sizeB?: number;
  /** SHA-256 of the bytes (files and symlink targets; absent for folders and skipped files) */
  hashA?: string;
  hashB?: string;
}

/** The first aligned pair of steps where two runs' workspaces differ (`runs:workspaces-first`). */
export interface WorkspacesFirstDivergenceView {
  /** null: they are the same at every pair asked about (or a side has no recorded files) */
  first: {
    /** index into the comparison's rows */
    row: number;
    stepA: number;
    stepB: number;
    diff: WorkspacesDiffView;
  } | null;
}

/** Two runs' workspaces side by side at a step of each (`runs:workspaces-diff`). */
export interface WorkspacesDiffView {
  a: { runId: string; step: number; asOf: number };
  b: { runId: string; step: number; asOf: number };
  files: WorkspaceDifference[];
  /** more files differ than listed (`files` is cut at this many) */
  truncatedAt?: number;
  /** why a side has no recorded files (no checkpoints, evicted, unreadable): nothing compared */
  unavailable?: string;
}
