/**
 * `workbench run file:PATH`: the task is the content of a file (a long prompt kept in a
 * file, as users of OpenManus's `--prompt` do with `"$(cat task.md)"`). A relative path
 * is relative to the current folder; `~/` is the home folder. The file must be UTF-8
 * text and at most 1 MiB: a task is sent to the model with every request.
 * (Issue 11 owns reading the task from stdin and `--prompt`; this is the `file:` form.)
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from './usage-error';

export const TASK_FILE_PREFIX = 'file:';
const MAX_TASK_FILE_BYTES = 1024 * 1024;

/** The task itself: the text given, or the content of the file a `file:` task names. */
export function resolveTaskText(task: string, cwd: string = process.cwd()): string {
  if (!task.startsWith(TASK_FILE_PREFIX)) return task;
  const raw = task.slice(TASK_FILE_PREFIX.length).trim();
  if (raw === '') throw new UsageError('file: needs a path (e.g. workbench run file:task.md)');
  const path = raw.startsWith('~/') ? resolve(homedir(), raw.slice(2)) : resolve(cwd, raw);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new UsageError(`the task file ${path} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the task file ${path}: ${(error as Error).message}`);
  }
  if (size > MAX_TASK_FILE_BYTES) {
    throw new UsageError(
      `the task file ${path} has ${size} bytes; a task may have at most ${MAX_TASK_FILE_BYTES} (it is sent with every model request)`,
    );
  }
  const bytes = readFileSync(path);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\uFFFD') || bytes.includes(0)) {
    throw new UsageError(`the task file ${path} is not UTF-8 text`);
  }
  const content = text.trim();
  if (content === '') throw new UsageError(`the task file ${path} is empty`);
  return content;
}
