/**
 * A dataset on disk (docs/experiments.md): its JSONL lines validated (every problem with
 * its line, key and fix), `file:` tasks and workspace folders resolved beside the file
 * (never outside it: a dataset is often someone else's), and its version: a content
 * hash of the lines, the task files and the workspace folders' files, so an experiment
 * says exactly which content it ran.
 */
import { createHash } from 'node:crypto';
import {
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatasetError, parseDatasetLines, type DatasetItem } from '@shared/experiments/dataset';
import { readRegularFile } from '../util/read-regular-file';
import { isWithin } from '../util/contained-path';

const MAX_DATASET_BYTES = 16 * 1024 * 1024;
const MAX_TASK_FILE_BYTES = 1024 * 1024;
export const TASK_FILE_PREFIX = 'file:';

export interface ResolvedDatasetItem extends DatasetItem {
  /** the text the agent is given (a `file:` task's content) */
  taskText: string;
  /** the workspace folder's real path */
  workspacePath?: string;
}

export interface LoadedDataset {
  path: string;
  /** `sha256:` and the first 16 hex digits of the content hash */
  version: string;
  items: ResolvedDatasetItem[];
}

export function loadDataset(file: string): LoadedDataset {
  const path = resolve(file);
  const text = readRegularFile(path, MAX_DATASET_BYTES, 'The dataset');
  const { items, lines, problems } = parseDatasetLines(text);
  const base = dirname(path);
  const resolved: ResolvedDatasetItem[] = [];
  for (const [index, item] of items.entries()) {
    const line = lines[index] ?? 0;
    try {
      resolved.push(resolveItem(item, base));
    } catch (error) {
      const key = (error as { key?: string }).key;
      problems.push({ line, ...(key ? { key } : {}), message: (error as Error).message });
    }
  }
  if (items.length === 0 && problems.length === 0)
    problems.push({
      line: 1,
      message: 'the dataset has no items; add one line like {"task": "..."}',
    });
  if (problems.length > 0)
    throw new DatasetError(
      path,
      problems.sort((a, b) => a.line - b.line),
    );
  return { path, version: datasetVersion(text, resolved), items: resolved };
}

class ItemError extends Error {
  constructor(
    message: string,
    readonly key: string,
  ) {
    super(message);
  }
}

function resolveItem(item: DatasetItem, base: string): ResolvedDatasetItem {
  let taskText = item.task;
  if (item.task.startsWith(TASK_FILE_PREFIX)) {
    const file = inside(base, item.task.slice(TASK_FILE_PREFIX.length).trim(), 'task', 'file');
    taskText = readRegularFile(file, MAX_TASK_FILE_BYTES, 'The task file').trim();
    if (taskText === '') throw new ItemError(`the task file ${file} is empty`, 'task');
  }
  const workspacePath =
    item.workspace !== undefined ? inside(base, item.workspace, 'workspace', 'folder') : undefined;
  return { ...item, taskText, ...(workspacePath ? { workspacePath } : {}) };
}

/** A path beside the dataset, links followed, that must stay in its folder. */
function inside(base: string, relative: string, key: string, kind: 'file' | 'folder'): string {
  const fix = `give a path relative to the dataset's folder ${base}, inside it`;
  if (relative === '' || relative.includes('\0'))
    throw new ItemError(`"${key}" names no ${kind}; ${fix}`, key);
  let real: string;
  try {
    real = realpathSync(resolve(base, relative));
  } catch {
    throw new ItemError(`"${key}": ${resolve(base, relative)} does not exist; ${fix}`, key);
  }
  if (!isWithin(realpathSync(base), real))
    throw new ItemError(
      `"${key}": "${relative}" leads to ${real}, outside the dataset's folder; ${fix}`,
      key,
    );
  const isFolder = statSync(real).isDirectory();
  if (isFolder !== (kind === 'folder'))
    throw new ItemError(`"${key}": ${real} is not a ${kind}`, key);
  return real;
}

/** The dataset's content hash: its lines, its task files' text and its folders' files. */
export function datasetVersion(text: string, items: readonly ResolvedDatasetItem[]): string {
  const hash = createHash('sha256');
  hash.update(text.replace(/\r\n/g, '\n').trim());
  for (const item of items) {
    hash.update(`\0task\0${item.taskText}`);
    if (item.workspacePath) hashFolder(hash, item.workspacePath, '');
  }
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}

function hashFolder(hash: ReturnType<typeof createHash>, root: string, rel: string): void {
  const entries = readdirSync(join(root, rel)).sort();
  for (const name of entries) {
    const path = join(root, rel, name);
    const key = rel === '' ? name : `${rel}/${name}`;
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      hash.update(`\0dir\0${key}`);
      hashFolder(hash, root, key);
    } else if (stat.isSymbolicLink()) hash.update(`\0link\0${key}\0${readlinkSync(path)}`);
    else if (stat.isFile()) {
      hash.update(`\0file\0${key}\0`);
      hash.update(readFileSync(path));
    }
  }
}
