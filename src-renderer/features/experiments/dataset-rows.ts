/**
 * The dataset editor's rows (issue 31): an item as editable text (metadata as JSON), and
 * back, every mistake said with the item; JSONL in and out through the same line format
 * the runtime reads (src-shared/experiments/dataset.ts).
 */
import { datasetLine, parseDatasetLines, type DatasetItem } from '@shared/experiments/dataset';

export interface ItemRow {
  id: string;
  task: string;
  workspace: string;
  expected: string;
  check: string;
  /** a JSON object, or empty */
  metadata: string;
}

export const ITEM_FIELDS = ['id', 'task', 'workspace', 'expected', 'check', 'metadata'] as const;

export function rowOf(item: DatasetItem): ItemRow {
  return {
    id: item.id,
    task: item.task,
    workspace: item.workspace ?? '',
    expected: item.expected ?? '',
    check: item.check ?? '',
    metadata: item.metadata ? JSON.stringify(item.metadata) : '',
  };
}

export function itemsOf(
  rows: readonly ItemRow[],
): { ok: true; items: DatasetItem[] } | { ok: false; error: string } {
  const items: DatasetItem[] = [];
  for (const [i, row] of rows.entries()) {
    const where = `Item ${i + 1}${row.id ? ` (${row.id})` : ''}`;
    if (row.task.trim() === '') return { ok: false, error: `${where}: the task is empty` };
    let metadata: Record<string, unknown> | undefined;
    if (row.metadata.trim() !== '') {
      try {
        metadata = JSON.parse(row.metadata) as Record<string, unknown>;
      } catch {
        metadata = undefined;
      }
      if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
        return {
          ok: false,
          error: `${where}: metadata must be a JSON object like {"topic": "math"}`,
        };
    }
    items.push({
      id: row.id.trim() || `item-${i + 1}`,
      task: row.task,
      ...(row.workspace.trim() ? { workspace: row.workspace.trim() } : {}),
      ...(row.expected !== '' ? { expected: row.expected } : {}),
      ...(row.check.trim() ? { check: row.check.trim() } : {}),
      ...(metadata ? { metadata } : {}),
    });
  }
  return { ok: true, items };
}

/** A JSONL file's items, or its problems (each with its line). */
export function importJsonl(
  text: string,
): { ok: true; rows: ItemRow[] } | { ok: false; error: string } {
  const parsed = parseDatasetLines(text);
  if (parsed.problems.length > 0)
    return {
      ok: false,
      error: parsed.problems.map((p) => `line ${p.line}: ${p.message}`).join('\n'),
    };
  return { ok: true, rows: parsed.items.map(rowOf) };
}

export function exportJsonl(items: readonly DatasetItem[]): string {
  return items.map(datasetLine).join('\n') + (items.length > 0 ? '\n' : '');
}
