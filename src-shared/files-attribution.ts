/**
 * Which tool call of a step wrote each of the step's file changes (issue 32 item 3). An
 * editor call (`str_replace_editor` create, str_replace, insert, undo_edit) names its file:
 * the change is attributed to it exactly. A shell or interpreter call (bash, python) can
 * write anything: a change no editor call names is attributed to each of the step's
 * calls that can write, by the step. Paths in calls are in the container (under the
 * sandbox's work_dir); the checkpoint's are relative to it.
 */
import type { RunEvent } from './events';
import type { ChangeAttribution, FileChangeView } from './domain/files';

const EDITOR = 'str_replace_editor';
const EDITS = new Set(['create', 'str_replace', 'insert', 'undo_edit']);
/** read-only tools: never the writer of a change */
const READ_ONLY = new Set(['terminate', 'ask_human', 'planning', 'web_search']);

interface Call {
  toolCallId: string;
  tool: string;
  args: unknown;
}

/** The workspace path an editor call names (relative), or undefined. */
export function editedPath(args: unknown, workDir: string): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const { command, path } = args as { command?: unknown; path?: unknown };
  if (typeof command !== 'string' || !EDITS.has(command) || typeof path !== 'string') return;
  const root = workDir.replace(/\/+$/, '');
  const parts: string[] = [];
  const absolute = path.startsWith('/') ? path : `${root}/${path}`;
  if (!absolute.startsWith(`${root}/`)) return undefined;
  for (const part of absolute.slice(root.length + 1).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.pop() === undefined) return undefined;
    } else parts.push(part);
  }
  return parts.length > 0 ? parts.join('/') : undefined;
}

export function attributeChanges(
  files: readonly FileChangeView[],
  events: readonly RunEvent[],
  step: number,
): FileChangeView[] {
  const started = events.find((e) => e.type === 'run.started');
  const setting = started?.type === 'run.started' ? started.settings?.['sandbox.work_dir'] : '';
  const workDir = typeof setting === 'string' && setting !== '' ? setting : '/workspace';
  const calls: Call[] = [];
  for (const e of events) {
    if (e.type === 'tool.started' && e.step === step) {
      calls.push({ toolCallId: e.toolCallId, tool: e.name, args: e.args });
    }
  }
  const exact = new Map<string, Call[]>();
  for (const call of calls) {
    if (call.tool !== EDITOR) continue;
    const path = editedPath(call.args, workDir);
    if (path !== undefined) exact.set(path, [...(exact.get(path) ?? []), call]);
  }
  const writers = calls.filter(
    (c) =>
      !READ_ONLY.has(c.tool) && !(c.tool === EDITOR && editedPath(c.args, workDir) === undefined),
  );
  return files.map((file) => {
    const named = exact.get(file.path);
    const attribution: ChangeAttribution[] = named
      ? named.map((c) => ({ step, toolCallId: c.toolCallId, tool: c.tool, certainty: 'exact' }))
      : writers
          .filter((c) => c.tool !== EDITOR)
          .map((c) => ({ step, toolCallId: c.toolCallId, tool: c.tool, certainty: 'step' }));
    return attribution.length > 0
      ? { ...file, attribution }
      : { ...file, attribution: [{ step, certainty: 'step' }] };
  });
}
