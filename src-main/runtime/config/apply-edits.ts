/**
 * Edits of config.toml that keep the user's comments and layout, checked: the patched
 * text must parse to exactly the data the edits describe, or the data is written out in
 * full instead (comments lost, values right). Shared by every write of the config service.
 */
import { stringify as stringifyToml } from 'smol-toml';
import { parseTomlText } from './load';
import { editToml, setPath, type TomlEdit } from './toml-document';

type RawTable = Record<string, unknown>;

/**
 * Applies edits keeping the file's comments and layout, then checks the result parses to
 * exactly the intended data; should the patcher ever produce something else, the data is
 * written out in full instead (comments lost, values right).
 */
export function applyEdits(
  text: string,
  raw: RawTable,
  edits: readonly TomlEdit[],
  file: string,
): { text: string; raw: RawTable } {
  let edited: { text: string; data: RawTable } | null;
  try {
    edited = editToml(text, raw, edits);
  } catch {
    edited = null;
  }
  let parsed: RawTable | null = null;
  try {
    if (edited) parsed = parseTomlText(edited.text, file);
  } catch {
    parsed = null;
  }
  if (edited && parsed && deepEqual(parsed, edited.data)) return { text: edited.text, raw: parsed };
  const expected = structuredClone(raw);
  for (const edit of edits) setPath(expected, [...edit.table, edit.key], edit.value);
  return { text: stringifyToml(expected), raw: expected };
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as RawTable)[k], (b as RawTable)[k]));
}
