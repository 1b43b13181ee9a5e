/**
 * A workspace change as a patch `git apply` takes (issue 32, `workbench runs patch`):
 * text files as unified diffs, everything else (binary, not UTF-8, too large to diff) as
 * git binary patches (zlib-deflated literals in git's base85), symlinks with mode 120000,
 * the executable bit as 100755. Binary hunks carry full blob ids: `git apply` refuses a
 * binary patch without them and checks the file it patches against the old one.
 * Empty folders are not in a patch (git tracks files only).
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { RawChange } from './workspace-changes';
import { isText, LINE_DIFF_LIMIT, lineDiff } from './workspace-changes';
import type { StateFile, WorkspaceHistory } from './workspace-history';

const ZERO_ID = '0'.repeat(40);
const BASE85 =
  '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';

export function gitPatch(history: WorkspaceHistory, changes: readonly RawChange[]): string {
  const parts: string[] = [];
  for (const change of changes) {
    const before = patchable(change.before);
    const after = patchable(change.after);
    if (!before && !after) continue;
    const a = before ? history.read(before) : Buffer.alloc(0);
    const b = after ? history.read(after) : Buffer.alloc(0);
    const oldMode = before ? gitMode(before) : undefined;
    const newMode = after ? gitMode(after) : undefined;
    // a file that became a symlink (or back) is a deletion and an addition for git
    if (before && after && oldMode !== newMode && (isLink(before) || isLink(after))) {
      parts.push(filePatch(change.path, a, Buffer.alloc(0), oldMode, undefined));
      parts.push(filePatch(change.path, Buffer.alloc(0), b, undefined, newMode));
      continue;
    }
    if (before && after && a.equals(b) && oldMode === newMode) continue;
    parts.push(filePatch(change.path, a, b, oldMode, newMode));
  }
  return parts.join('');
}

/** Files and symlinks with their bytes in the history; folders and others are not patched. */
function patchable(file: StateFile | undefined): StateFile | undefined {
  if (!file || (file.kind !== 'f' && file.kind !== 'l') || file.skipped !== undefined) return;
  return file;
}

const isLink = (file: StateFile) => file.kind === 'l';

function gitMode(file: StateFile): string {
  if (file.kind === 'l') return '120000';
  return (file.mode & 0o100) !== 0 ? '100755' : '100644';
}

function filePatch(
  path: string,
  a: Buffer,
  b: Buffer,
  oldMode: string | undefined,
  newMode: string | undefined,
): string {
  const name = quote(`a/${path}`);
  const newName = quote(`b/${path}`);
  const lines = [`diff --git ${name} ${newName}\n`];
  const oldId = oldMode ? blobId(a) : ZERO_ID;
  const newId = newMode ? blobId(b) : ZERO_ID;
  if (!oldMode) lines.push(`new file mode ${newMode}\n`);
  else if (!newMode) lines.push(`deleted file mode ${oldMode}\n`);
  else if (oldMode !== newMode) lines.push(`old mode ${oldMode}\n`, `new mode ${newMode}\n`);
  const sameMode = oldMode && newMode && oldMode === newMode ? ` ${oldMode}` : '';
  lines.push(`index ${oldId}..${newId}${sameMode}\n`);
  if (a.equals(b)) return lines.join(''); // a mode change only
  const isTextPair =
    a.length + b.length <= LINE_DIFF_LIMIT && isText(a) && isText(b) && !hasLoneCr(a, b);
  const hunks = isTextPair ? lineDiff(a.toString('utf8'), b.toString('utf8')) : undefined;
  if (!hunks) {
    lines.push('GIT binary patch\n', literal(b), literal(a));
    return lines.join('');
  }
  lines.push(`--- ${oldMode ? name : '/dev/null'}\n`, `+++ ${newMode ? newName : '/dev/null'}\n`);
  for (const h of hunks) {
    lines.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n`);
    for (const line of h.lines) lines.push(`${line}\n`);
  }
  return lines.join('');
}

/** A CR not before a LF would be read as a line end by some tools: such text goes as binary. */
function hasLoneCr(...texts: Buffer[]): boolean {
  return texts.some((t) => /\r(?!\n)/.test(t.toString('utf8')));
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** git's object id of a blob with these bytes */
export function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** `literal N` and the deflated bytes in git's base85, 52 bytes a line, then a blank line. */
function literal(bytes: Buffer): string {
  const deflated = deflateSync(bytes);
  const out = [`literal ${bytes.length}\n`];
  for (let at = 0; at < deflated.length; at += 52) {
    const chunk = deflated.subarray(at, at + 52);
    const length = chunk.length;
    const prefix =
      length <= 26 ? String.fromCharCode(65 + length - 1) : String.fromCharCode(97 + length - 27);
    out.push(`${prefix}${base85(chunk)}\n`);
  }
  out.push('\n');
  return out.join('');
}

function base85(chunk: Buffer): string {
  const padded = Buffer.alloc(Math.ceil(chunk.length / 4) * 4);
  chunk.copy(padded);
  let text = '';
  for (let i = 0; i < padded.length; i += 4) {
    let value = padded.readUInt32BE(i);
    const digits = new Array<string>(5);
    for (let d = 4; d >= 0; d--) {
      digits[d] = BASE85[value % 85]!;
      value = Math.floor(value / 85);
    }
    text += digits.join('');
  }
  return text;
}

/** git's C-style quoting for a name with characters its header parser would misread. */
function quote(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters need quoting, by their codes
  if (!/["\\\u0000-\u001f\u007f]/.test(name)) return name;
  // eslint-disable-next-line no-control-regex -- the same characters, replaced one by one
  const escaped = name.replace(/["\\\u0000-\u001f\u007f]/g, (c) => {
    switch (c) {
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      case '\n':
        return '\\n';
      case '\t':
        return '\\t';
      default:
        return `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
    }
  });
  return `"${escaped}"`;
}
