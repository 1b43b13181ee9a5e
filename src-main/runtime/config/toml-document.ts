/**
 * What the config code needs from a TOML file beyond parsing, on `@decimalturn/toml-patch`
 * (a maintained TOML patcher that keeps comments, whitespace and layout): where a key is
 * written, so validation errors can name its line, and edits of keys that leave every
 * other line as the user wrote it, in tables, dotted keys, inline tables and arrays.
 * Callers verify every edit by parsing the result (config-service.ts).
 */
import { parseDocument, patch, TomlFormat } from '@decimalturn/toml-patch';

export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

export interface TomlEdit {
  table: readonly string[];
  key: string;
  /** `undefined` removes the key */
  value: TomlValue | undefined;
}

type Table = Record<string, unknown>;

/**
 * Applies `edits` to `text`, keeping comments and layout. `data` is what `text` parses to;
 * returns the new text and the data it should parse to.
 */
export function editToml(
  text: string,
  data: Table,
  edits: readonly TomlEdit[],
): { text: string; data: Table } {
  const next = structuredClone(data);
  let source = text;
  for (const edit of edits) {
    if (edit.value === undefined && !isTable(getPath(next, edit.table))) continue;
    // A table that does not exist yet gets a `[table]` header of its own, at the end,
    // where a reader looks for it; left to itself the patcher would write it as a
    // dotted inline table at the top of the file.
    if (edit.value !== undefined && !isTable(getPath(next, edit.table))) {
      source = appendHeader(source, edit.table);
      setPath(next, edit.table, {});
    }
    setPath(next, [...edit.table, edit.key], edit.value);
  }
  if (source === text && deepEqualJson(next, data)) return { text, data: next };
  const format = TomlFormat.autoDetectFormat(source);
  // New sub-tables (an MCP server's env) as `[a.b.c]` sections, never inline.
  format.inlineTableStart = Number.MAX_SAFE_INTEGER;
  return { text: patch(source, next, format), data: next };
}

/**
 * The 1-based line where a key path is written: the key's own line if found (also inside
 * dotted keys and inline tables), else the header of the deepest table on the path, else
 * undefined. A text that does not parse has no lines to give.
 *
 * Known quirk of the patcher, kept: a header written `[ a . b ]` is rewritten `[a . b]`
 * when the file is edited (the value and every comment stay).
 */
export function findKeyLine(text: string, path: readonly (string | number)[]): number | undefined {
  const want = path.map(String);
  let blocks: CstNode[];
  try {
    // The CST is the patcher's own syntax tree (typed as internal); tests pin its shape.
    blocks = parseDocument(text).cst as unknown as CstNode[];
  } catch {
    return undefined;
  }
  let best: { line: number; depth: number } | undefined;
  const consider = (line: number, depth: number) => {
    if (!best || depth > best.depth) best = { line, depth };
  };
  const visitKeyValues = (items: CstNode[], prefix: string[]) => {
    for (const node of items) {
      const kv = node.type === 'InlineItem' ? node.item : node;
      if (kv?.type !== 'KeyValue' || !kv.key) continue;
      const keyPath = [...prefix, ...kv.key.value];
      const shared = sharedPrefix(keyPath, want);
      // a dotted key that opens a deeper table on the path (`fs.command` for `fs.args`)
      if (shared > prefix.length && shared < keyPath.length) consider(kv.loc.start.line, shared);
      if (shared === keyPath.length) {
        consider(kv.loc.start.line, shared + (shared === want.length ? 1 : 0));
        if (kv.value?.type === 'InlineTable' && kv.value.items)
          visitKeyValues(kv.value.items, keyPath);
      }
    }
  };
  for (const block of blocks) {
    if (block.type === 'KeyValue') {
      visitKeyValues([block], []);
    } else if (block.type === 'Table' || block.type === 'TableArray') {
      const header = block.key?.item?.value ?? [];
      if (sharedPrefix(header, want) !== header.length) continue;
      consider(block.loc.start.line, header.length);
      visitKeyValues(block.items ?? [], header);
    }
  }
  return best?.line;
}

/** The part of the patcher's CST that findKeyLine reads. */
interface CstNode {
  type: string;
  loc: { start: { line: number } };
  key?: { value: string[]; item?: { value: string[] } } & { item?: { value: string[] } };
  item?: CstNode;
  items?: CstNode[];
  value?: CstNode & { items?: CstNode[] };
}

function deepEqualJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function appendHeader(text: string, table: readonly string[]): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.replace(/\s+$/, '');
  const header = `[${table.map(quoteKey).join('.')}]`;
  return body === '' ? `${header}${newline}` : `${body}${newline}${newline}${header}${newline}`;
}

function quoteKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getPath(data: Table, path: readonly string[]): unknown {
  let node: unknown = data;
  for (const key of path) {
    if (!isTable(node)) return undefined;
    node = node[key];
  }
  return node;
}

export function setPath(data: Table, path: readonly string[], value: unknown): void {
  let node = data;
  for (const key of path.slice(0, -1)) {
    if (!isTable(node[key])) node[key] = {};
    node = node[key] as Table;
  }
  const last = path.at(-1) as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
}
