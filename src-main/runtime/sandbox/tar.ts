/**
 * A small tar (ustar + PAX) writer and reader for moving files in and out of containers
 * through the engine's archive API. Files travel as bytes in archives, never through a
 * shell command line, so no path or content can be misread as shell syntax (fixes the
 * quoting holes of openmanus.md 7.2 item 14). The reader understands what Docker
 * produces: ustar headers, PAX extended headers (long or non-ASCII names, big sizes) and
 * GNU long names.
 */

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface TarEntry {
  path: string;
  type: TarEntryType;
  /** permission bits, e.g. 0o644 */
  mode: number;
  uid: number;
  gid: number;
  mtime: Date;
  data: Buffer;
  linkTarget?: string;
}

export interface TarFileInput {
  path: string;
  data?: Buffer | string;
  type?: 'file' | 'directory';
  mode?: number;
  uid?: number;
  gid?: number;
  mtime?: Date;
}

const BLOCK = 512;

export function createTar(entries: TarFileInput[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const isDirectory = entry.type === 'directory';
    const data = isDirectory
      ? Buffer.alloc(0)
      : typeof entry.data === 'string'
        ? Buffer.from(entry.data, 'utf8')
        : (entry.data ?? Buffer.alloc(0));
    const name = isDirectory && !entry.path.endsWith('/') ? `${entry.path}/` : entry.path;
    if (name.includes('\0')) throw new Error(`tar: a path cannot contain a NUL byte`);
    const fields = {
      mode: entry.mode ?? (isDirectory ? 0o755 : 0o644),
      uid: entry.uid ?? 0,
      gid: entry.gid ?? 0,
      mtime: Math.floor((entry.mtime ?? new Date()).getTime() / 1000),
    };
    const nameBytes = Buffer.byteLength(name);
    const isAscii = /^[\x20-\x7e]*$/.test(name);
    if (nameBytes > 100 || !isAscii) {
      // A PAX header carries the full UTF-8 path; the ustar name is a placeholder.
      const pax = paxRecords({ path: name });
      parts.push(header('././@PaxHeader', pax.length, 'x', fields), pad(pax));
    }
    const shortName = nameBytes > 100 || !isAscii ? asciiPlaceholder(name) : name;
    parts.push(header(shortName, data.length, isDirectory ? '5' : '0', fields), pad(data));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

export function parseTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let pax: Record<string, string> = {};
  let globalPax: Record<string, string> = {};
  let longName: string | undefined;
  let longLink: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) break;
    if (!checksumMatches(block)) throw new Error(`tar: bad header checksum at byte ${offset}`);
    const typeflag = String.fromCharCode(block[156] ?? 0x30);
    const attrs = { ...globalPax, ...pax };
    const size = attrs['size'] !== undefined ? Number(attrs['size']) : readNumber(block, 124, 12);
    const dataStart = offset + BLOCK;
    if (dataStart + size > archive.length) throw new Error('tar: archive is truncated');
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (typeflag === 'x') {
      pax = parsePax(data);
      continue;
    }
    if (typeflag === 'g') {
      globalPax = { ...globalPax, ...parsePax(data) };
      continue;
    }
    if (typeflag === 'L') {
      longName = cString(data);
      continue;
    }
    if (typeflag === 'K') {
      longLink = cString(data);
      continue;
    }
    const prefix = readString(block, 345, 155);
    const name = readString(block, 0, 100);
    const path = attrs['path'] ?? longName ?? (prefix ? `${prefix}/${name}` : name);
    const linkTarget = attrs['linkpath'] ?? longLink ?? readString(block, 157, 100);
    const type: TarEntryType =
      typeflag === '0' || typeflag === '\0' || typeflag === '7'
        ? 'file'
        : typeflag === '5'
          ? 'directory'
          : typeflag === '2'
            ? 'symlink'
            : 'other';
    const mtimeSeconds =
      attrs['mtime'] !== undefined ? Number(attrs['mtime']) : readNumber(block, 136, 12);
    entries.push({
      path,
      type,
      mode: readNumber(block, 100, 8) & 0o7777,
      uid: attrs['uid'] !== undefined ? Number(attrs['uid']) : readNumber(block, 108, 8),
      gid: attrs['gid'] !== undefined ? Number(attrs['gid']) : readNumber(block, 116, 8),
      mtime: new Date(mtimeSeconds * 1000),
      data: Buffer.from(data),
      ...(type === 'symlink' ? { linkTarget } : {}),
    });
    pax = {};
    longName = undefined;
    longLink = undefined;
  }
  return entries;
}

function header(
  name: string,
  size: number,
  typeflag: string,
  fields: { mode: number; uid: number; gid: number; mtime: number },
): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  writeOctal(block, 100, 8, fields.mode);
  writeOctal(block, 108, 8, fields.uid);
  writeOctal(block, 116, 8, fields.gid);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, fields.mtime);
  block.fill(0x20, 148, 156); // checksum is computed with this field as spaces
  block.write(typeflag, 156, 1, 'ascii');
  block.write('ustar\u000000', 257, 8, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return block;
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  const digits = Math.floor(value).toString(8);
  if (digits.length > length - 1) throw new Error(`tar: value ${value} does not fit the header`);
  block.write(`${digits.padStart(length - 1, '0')}\u0000`, offset, length, 'ascii');
}

function pad(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - rest)]);
}

function paxRecords(records: Record<string, string>): Buffer {
  let text = '';
  for (const [key, value] of Object.entries(records)) {
    const body = ` ${key}=${value}\n`;
    // The length prefix counts itself, so find the fixed point.
    let length = Buffer.byteLength(body) + 1;
    while (String(length).length + Buffer.byteLength(body) !== length) {
      length = String(length).length + Buffer.byteLength(body);
    }
    text += `${length}${body}`;
  }
  return Buffer.from(text, 'utf8');
}

function parsePax(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space < 0) break;
    const length = Number(data.toString('ascii', offset, space));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.toString('utf8', space + 1, offset + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) records[record.slice(0, eq)] = record.slice(eq + 1);
    offset += length;
  }
  return records;
}

function asciiPlaceholder(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  return ascii.length > 100 ? ascii.slice(ascii.length - 100) : ascii;
}

function readString(block: Buffer, offset: number, length: number): string {
  return cString(block.subarray(offset, offset + length));
}

function cString(data: Buffer): string {
  const end = data.indexOf(0);
  return data.toString('utf8', 0, end < 0 ? data.length : end);
}

function readNumber(block: Buffer, offset: number, length: number): number {
  const field = block.subarray(offset, offset + length);
  // GNU base-256 encoding for big values: high bit of the first byte set.
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let value = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function checksumMatches(block: Buffer): boolean {
  const stored = readNumber(block, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  return sum === stored;
}
