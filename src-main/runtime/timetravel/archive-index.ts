/**
 * Reads a checkpoint archive's entries without extracting it (issue 32: the files of a
 * step): one pass over the headers, seeking past the data, gives each entry's name, type,
 * mode, real size and where its bytes are; a file's bytes are then read from there
 * alone. Understands what both snapshot methods write: ustar, PAX extended headers (long
 * names, big sizes), GNU long names, hard links (a second name of an entry before it) and
 * sparse files (PAX 1.0: the map at the start of the data; 0.0/0.1: the map in the PAX
 * header), read back with their holes as zeros.
 *
 * Indexes are kept per archive (its path, size and mtime): a checkpoint never changes
 * once committed, so reading a step after the first costs no header pass.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

const BLOCK = 512;

export type ArchivedKind = 'f' | 'd' | 'l' | 'h' | 'o';

export interface ArchivedEntry {
  path: string;
  /** f file, d folder, l symlink, h hard link (to `linkTarget` in the same archive), o other */
  kind: ArchivedKind;
  mode: number;
  /** the file's real size (a sparse file's with its holes) */
  size: number;
  /** where the entry's data starts in the archive */
  offset: number;
  /** bytes of data stored (a sparse file's map and regions) */
  stored: number;
  linkTarget?: string;
  /** a sparse file's data regions (PAX 0.x maps; a 1.0 map is read from the data) */
  sparse?: 'v1' | { offset: number; length: number }[];
}

export interface ArchiveIndex {
  path: string;
  entries: Map<string, ArchivedEntry>;
}

const cache = new Map<string, { key: string; index: ArchiveIndex }>();
/** archives whose index is kept (a 1,000-step run's chain fits) */
const CACHE_LIMIT = 4_096;

/** The archive's entries by path (a later entry of the same path replaces an earlier one). */
export function indexArchive(path: string): ArchiveIndex {
  // one stat for a known archive (a chain of 1,000 is walked for a step's tree)
  const known = statSync(path);
  const hit = cache.get(path);
  if (hit && hit.key === `${known.size}:${known.mtimeMs}:${known.ino}`) return hit.index;
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    const index = { path, entries: readHeaders(fd, stat.size) };
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(path, { key, index });
    return index;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads an archive through a window of 1 MB: a checkpoint of 5,000 small files is a few
 * reads, not one system call per header.
 */
class Window {
  private buffer = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly fd: number,
    private readonly total: number,
  ) {}

  /** `length` bytes at `at` (fewer at the end of the file) */
  bytes(at: number, length: number): Buffer {
    if (at < this.start || at + length > this.start + this.buffer.length) {
      const size = Math.min(Math.max(length, WINDOW), Math.max(0, this.total - at));
      const buffer = Buffer.alloc(size);
      let done = 0;
      while (done < size) {
        const n = readSync(this.fd, buffer, done, size - done, at + done);
        if (n === 0) break;
        done += n;
      }
      this.buffer = buffer.subarray(0, done);
      this.start = at;
    }
    return this.buffer.subarray(at - this.start, at - this.start + length);
  }
}

const WINDOW = 1 << 20;

function readHeaders(fd: number, total: number): Map<string, ArchivedEntry> {
  const entries = new Map<string, ArchivedEntry>();
  const window = new Window(fd, total);
  let at = 0;
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  let longLink: string | undefined;
  while (at + BLOCK <= total) {
    const header = window.bytes(at, BLOCK);
    if (header.length < BLOCK) break;
    if (header.every((b) => b === 0)) break; // end of archive
    const type = String.fromCharCode(header[156]!);
    const size = Number(pax['size'] ?? octal(header, 124, 12));
    const dataAt = at + BLOCK;
    const next = dataAt + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x' || type === 'g' || type === 'L' || type === 'K') {
      const data = Buffer.from(window.bytes(dataAt, size));
      if (type === 'x') pax = { ...pax, ...parsePax(data) };
      else if (type === 'L') longName = cString(data);
      else if (type === 'K') longLink = cString(data);
      at = next;
      continue;
    }
    const prefix = header.toString('utf8', 345, 500).replace(/\0.*$/s, '');
    const rawName = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const fullName =
      pax['GNU.sparse.name'] ??
      pax['path'] ??
      longName ??
      (prefix && isUstar(header) ? `${prefix}/${rawName}` : rawName);
    const path = normalize(fullName);
    const linkTarget =
      pax['linkpath'] ?? longLink ?? header.toString('utf8', 157, 257).replace(/\0.*$/s, '');
    const mode = octal(header, 100, 8) & 0o7777;
    const kind: ArchivedKind =
      type === '0' || type === '\0' || type === '7'
        ? 'f'
        : type === '5'
          ? 'd'
          : type === '2'
            ? 'l'
            : type === '1'
              ? 'h'
              : 'o';
    const realSize = pax['GNU.sparse.realsize'] ?? pax['GNU.sparse.size'];
    const entry: ArchivedEntry = {
      path,
      kind,
      mode,
      size: kind === 'f' ? Number(realSize ?? size) : 0,
      offset: dataAt,
      stored: size,
      ...(kind === 'l' || kind === 'h' ? { linkTarget: normalize(linkTarget) } : {}),
      ...sparseOf(pax),
    };
    if (path !== '') entries.set(path, entry);
    pax = {};
    longName = undefined;
    longLink = undefined;
    at = kind === 'f' || kind === 'o' ? next : dataAt;
  }
  return entries;
}

/** The bytes of a file entry (a hard link's from the entry it names, holes as zeros). */
export function readArchived(index: ArchiveIndex, entry: ArchivedEntry): Buffer {
  if (entry.kind === 'h') {
    const target = index.entries.get(entry.linkTarget ?? '');
    if (!target || target.kind !== 'f') return Buffer.alloc(0);
    return readArchived(index, target);
  }
  if (entry.kind !== 'f') return Buffer.alloc(0);
  const fd = openSync(index.path, 'r');
  try {
    if (entry.sparse === undefined) return readAt(fd, entry.offset, entry.size);
    const out = Buffer.alloc(entry.size);
    let regions: { offset: number; length: number }[];
    let dataAt = entry.offset;
    if (entry.sparse === 'v1') {
      const parsed = readSparseMap(fd, entry.offset);
      regions = parsed.regions;
      dataAt += parsed.bytes;
    } else {
      regions = entry.sparse;
    }
    for (const region of regions) {
      if (region.length === 0) continue;
      readSync(fd, out, region.offset, Math.min(region.length, out.length - region.offset), dataAt);
      dataAt += region.length;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** PAX 1.0: decimal numbers a line (the count, then offset and length pairs), padded to a block. */
function readSparseMap(
  fd: number,
  at: number,
): { regions: { offset: number; length: number }[]; bytes: number } {
  let text = '';
  let blocks = 0;
  let numbers: number[];
  for (;;) {
    text += readAt(fd, at + blocks * BLOCK, BLOCK).toString('ascii');
    blocks++;
    const lines = text.split('\n');
    lines.pop(); // the line not yet complete
    numbers = lines.map(Number);
    const count = numbers[0];
    if (count !== undefined && numbers.length >= 1 + 2 * count) break;
    if (blocks > 1 << 16) throw new Error('tar: a sparse map that does not end');
  }
  const count = numbers[0]!;
  const regions = [];
  for (let i = 0; i < count; i++) {
    regions.push({ offset: numbers[1 + 2 * i]!, length: numbers[2 + 2 * i]! });
  }
  return { regions, bytes: blocks * BLOCK };
}

function sparseOf(pax: Record<string, string>): Pick<ArchivedEntry, 'sparse'> {
  if (pax['GNU.sparse.major'] === '1') return { sparse: 'v1' };
  const map = pax['GNU.sparse.map'];
  if (map !== undefined) {
    const numbers = map.split(',').map(Number);
    const regions = [];
    for (let i = 0; i + 1 < numbers.length; i += 2) {
      regions.push({ offset: numbers[i]!, length: numbers[i + 1]! });
    }
    return { sparse: regions };
  }
  return {};
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number(data.toString('ascii', at, space));
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.toString('utf8', space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return out;
}

function readAt(fd: number, at: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, at + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? out : out.subarray(0, done);
}

function octal(block: Buffer, at: number, length: number): number {
  // base-256 (GNU) for values too big for octal
  if ((block[at]! & 0x80) !== 0) {
    let value = 0;
    for (let i = at + 1; i < at + length; i++) value = value * 256 + block[i]!;
    return value;
  }
  const text = block
    .toString('ascii', at, at + length)
    .replace(/[\0 ]+/g, ' ')
    .trim();
  return text === '' ? 0 : parseInt(text.split(' ')[0]!, 8);
}

function isUstar(block: Buffer): boolean {
  return block.toString('ascii', 257, 262) === 'ustar';
}

function cString(data: Buffer): string {
  const nul = data.indexOf(0);
  return data.toString('utf8', 0, nul < 0 ? data.length : nul);
}

/** Paths as the listing has them: relative, no `./`, no trailing slash. */
function normalize(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}
