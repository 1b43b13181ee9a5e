/**
 * Line-level knowledge of a TOML file: where a table or key is written (so validation
 * errors can name the line) and surgical edits of one scalar key (so a save from the UI
 * keeps the user's comments and layout). This is deliberately small: tables given as
 * `[a.b]` headers and keys written as `key = value` on one line. Callers verify every
 * edit by parsing the result and fall back to a full rewrite when it does not match.
 */

export type TomlScalar = string | number | boolean;

const HEADER = /^\s*\[(?!\[)\s*(.+?)\s*\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\s*\[/;

/** Splits a dotted key (`llm."my.profile"`) into its segments, unquoted. */
export function splitDottedKey(text: string): string[] {
  const segments: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '.') {
      segments.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  segments.push(current.trim());
  return segments;
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

interface TableRange {
  /** 0-based index of the header line, -1 for the root table */
  header: number;
  /** first line after the table (next header or end of file) */
  end: number;
}

function findTable(lines: readonly string[], table: readonly string[]): TableRange | null {
  if (table.length === 0) {
    const end = lines.findIndex((l) => ANY_HEADER.test(l));
    return { header: -1, end: end === -1 ? lines.length : end };
  }
  for (let i = 0; i < lines.length; i++) {
    const match = HEADER.exec(lines[i] ?? '');
    if (!match?.[1] || !sameSegments(splitDottedKey(match[1]), table)) continue;
    let end = i + 1;
    while (end < lines.length && !ANY_HEADER.test(lines[end] ?? '')) end++;
    return { header: i, end };
  }
  return null;
}

function keyPattern(key: string): RegExp {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*(?:${escaped}|"${escaped}"|'${escaped}')\\s*=`);
}

function findKey(lines: readonly string[], range: TableRange, key: string): number {
  const pattern = keyPattern(key);
  for (let i = range.header + 1; i < range.end; i++) if (pattern.test(lines[i] ?? '')) return i;
  return -1;
}

/**
 * The 1-based line where a key path is written: the key's own line if found, else the
 * header of the deepest table on the path, else undefined.
 */
export function findKeyLine(text: string, path: readonly (string | number)[]): number | undefined {
  const lines = text.split(/\r?\n/);
  const segments = path.map(String);
  for (let split = segments.length - 1; split >= 0; split--) {
    const range = findTable(lines, segments.slice(0, split));
    if (!range) continue;
    const key = segments[split];
    if (key !== undefined) {
      const at = findKey(lines, range, key);
      if (at !== -1) return at + 1;
    }
    if (range.header >= 0) return range.header + 1;
  }
  return undefined;
}

export function formatScalar(value: TomlScalar): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot write ${value} to TOML`);
    return String(value);
  }
  return value ? 'true' : 'false';
}

/**
 * Sets (or with `undefined`, removes) `key` in `[table]`, keeping every other line as
 * it was. Creates the table at the end of the file when it does not exist.
 */
export function setTomlKey(
  text: string,
  table: readonly string[],
  key: string,
  value: TomlScalar | undefined,
): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const range = findTable(lines, table);
  const assignment = value === undefined ? null : `${quoteKey(key)} = ${formatScalar(value)}`;
  if (!range) {
    if (!assignment) return text;
    while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
    if (lines.length > 0) lines.push('');
    lines.push(`[${table.map(quoteKey).join('.')}]`, assignment, '');
    return lines.join(newline);
  }
  const at = findKey(lines, range, key);
  if (at !== -1) {
    if (assignment) {
      const comment = trailingComment(lines[at] ?? '');
      lines[at] = `${/^\s*/.exec(lines[at] ?? '')?.[0] ?? ''}${assignment}${comment}`;
    } else {
      lines.splice(at, 1);
    }
    return lines.join(newline);
  }
  if (!assignment) return text;
  // After the table's last key line, so the new key sits with its siblings.
  let insertAt = range.header + 1;
  for (let i = range.header + 1; i < range.end; i++) {
    const line = (lines[i] ?? '').trim();
    if (line !== '' && !line.startsWith('#')) insertAt = i + 1;
  }
  lines.splice(insertAt, 0, assignment);
  return lines.join(newline);
}

function quoteKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** ` # comment` after a one-line scalar value, kept when the value is replaced. */
function trailingComment(line: string): string {
  let quote: string | null = null;
  for (let i = line.indexOf('=') + 1; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '#') {
      return ` ${line.slice(i).trim()}`;
    }
  }
  return '';
}
