/**
 * Datasets (issue 31): a JSONL file of items an experiment runs every variant on. Each
 * non-empty line is one item:
 *
 *   {"id"?: "slug", "task": "text" | "file:task.md", "workspace"?: "folder",
 *    "expected"?: "answer", "check"?: "cmd", "metadata"?: {...}}
 *
 * `task` may name a file beside the dataset (`file:`); `workspace` is a folder beside it
 * (a run's starting workspace kept by "Add to dataset" lives in `workspaces/ID/`). The
 * line validation is pure and says which line, which key and what to do; reading the
 * files and hashing the content is the runtime's (runtime/experiments/dataset-file.ts).
 */
export interface DatasetItem {
  /** stable across edits: the report pairs variants' runs by it */
  id: string;
  /** as written: text, or `file:PATH` */
  task: string;
  workspace?: string;
  expected?: string;
  check?: string;
  metadata?: Record<string, unknown>;
}

export interface DatasetProblem {
  line: number;
  key?: string;
  message: string;
}

export class DatasetError extends Error {
  constructor(
    readonly file: string,
    readonly problems: DatasetProblem[],
  ) {
    super(problems.map((p) => `${file} line ${p.line}: ${p.message}`).join('\n'));
    this.name = 'DatasetError';
  }
}

const KEYS = ['id', 'task', 'workspace', 'expected', 'check', 'metadata'];
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The items of a dataset's text; every problem is collected (not only the first). */
export function parseDatasetLines(text: string): {
  items: DatasetItem[];
  /** each item's line number (1-based) */
  lines: number[];
  problems: DatasetProblem[];
} {
  const items: DatasetItem[] = [];
  const lines: number[] = [];
  const problems: DatasetProblem[] = [];
  const ids = new Map<string, number>();
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    const source = raw.trim();
    if (source === '') continue;
    const problem = (message: string, key?: string) =>
      problems.push({ line, ...(key ? { key } : {}), message });
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      problem(
        `is not JSON (${(error as Error).message}); write one object a line, like {"task": "..."}`,
      );
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problem('is not an object; write one object a line, like {"task": "..."}');
      continue;
    }
    const record = value as Record<string, unknown>;
    const before = problems.length;
    for (const key of Object.keys(record))
      if (!KEYS.includes(key)) problem(`unknown key "${key}" (keys: ${KEYS.join(', ')})`, key);
    const { task, workspace, expected, check, metadata } = record;
    if (typeof task !== 'string' || task.trim() === '')
      problem('"task" must be a non-empty string (the task text, or file:PATH)', 'task');
    for (const [key, v] of [
      ['workspace', workspace],
      ['expected', expected],
      ['check', check],
    ] as const)
      if (v !== undefined && typeof v !== 'string') problem(`"${key}" must be a string`, key);
    if (typeof check === 'string' && check.trim() === '')
      problem('"check" must be a non-empty command (or leave it out)', 'check');
    if (
      metadata !== undefined &&
      (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    )
      problem('"metadata" must be an object like {"topic": "math"}', 'metadata');
    let id = `line-${line}`;
    if (record.id !== undefined) {
      if (typeof record.id !== 'string' || !ID.test(record.id))
        problem(
          '"id" must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
          'id',
        );
      else id = record.id;
    }
    const seen = ids.get(id);
    if (seen !== undefined)
      problem(`the id "${id}" is already used on line ${seen}; ids must be unique`, 'id');
    else ids.set(id, line);
    if (problems.length > before) continue;
    lines.push(line);
    items.push({
      id,
      task: task as string,
      ...(typeof workspace === 'string' ? { workspace } : {}),
      ...(typeof expected === 'string' ? { expected } : {}),
      ...(typeof check === 'string' ? { check } : {}),
      ...(metadata !== undefined ? { metadata: metadata as Record<string, unknown> } : {}),
    });
  }
  return { items, lines, problems };
}

/** One item as its JSONL line (keys in a fixed order, so the file diffs well). */
export function datasetLine(item: DatasetItem): string {
  const ordered: Record<string, unknown> = { id: item.id, task: item.task };
  if (item.workspace !== undefined) ordered.workspace = item.workspace;
  if (item.expected !== undefined) ordered.expected = item.expected;
  if (item.check !== undefined) ordered.check = item.check;
  if (item.metadata !== undefined) ordered.metadata = item.metadata;
  return JSON.stringify(ordered);
}
