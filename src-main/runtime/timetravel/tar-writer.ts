/**
 * A tar archive written straight to a file descriptor (or planned first and written later:
 * `deferred`), for the host snapshot: every byte
 * is counted before it is written (a snapshot's caps are checked against exact sizes, not
 * found out after the disk took them), writes are synchronous into one buffer flushed in
 * large chunks (an async write per entry cost more than the copy), and it writes what
 * tar-stream cannot: sparse files as PAX 1.0 sparse entries (only their data, holes
 * recorded in a map; GNU tar and Go's archive/tar, so Docker's putArchive, read them)
 * and hard links as link entries (the data once).
 *
 * ustar headers, with a PAX extended header before an entry whose name, link target,
 * size or ids do not fit ustar's fields.
 *
 * Deferred (issue 27, checkpoints off the step's path): on the step's path the archive is
 * planned, headers built and sizes counted exactly as when writing, while each file's
 * bytes are captured into a staging copy (`stagedData`); `writeTo` then writes the archive
 * beside the next step, reading the staged copies, never the workspace.
 */
import { writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { SnapshotLimitError } from './snapshot-caps';

export const BLOCK = 512;
const END_OF_ARCHIVE = 2 * BLOCK;
/** ustar's 11 octal digits */
const MAX_USTAR_SIZE = 0o77777777777;
/** ustar's 7 octal digits */
const MAX_USTAR_ID = 0o7777777;

export interface EntryMeta {
  /** path inside the archive, relative, no trailing slash */
  path: string;
  mode: number;
  uid: number;
  gid: number;
  /** milliseconds since the epoch */
  mtimeMs: number;
}

/** A data region of a sparse file: `length` bytes at `offset`; the rest are holes. */
export interface Region {
  offset: number;
  length: number;
}

/**
 * An entry's data taken from a staging copy when a deferred archive is written: exactly
 * `length` bytes, the copy cut there or padded with zeros (the file changed while it was
 * copied: it changed after the mark, so the next checkpoint takes it again).
 */
export interface StagedData {
  file: string;
  length: number;
}

/** Where a deferred archive's parts are: bytes built on the path, or a staged copy's. */
type Segment = Buffer | StagedData;

const DEFERRED = -1;

export class TarFileWriter {
  private readonly buffer = Buffer.alloc(1 << 20);
  private used = 0;
  private total = 0;
  /** bytes of the current file entry still expected */
  private dataLeft = 0;
  /** a deferred archive's parts, in order */
  private readonly segments: Segment[] = [];

  constructor(
    /** where it is written, or `TarFileWriter.deferred()`: nothing until `writeTo` */
    private readonly fd: number,
    /** the archive never grows past it: a write that would throws SnapshotLimitError */
    private readonly limit = Infinity,
  ) {}

  /** An archive planned now and written by `writeTo` later. */
  static deferred(limit = Infinity): TarFileWriter {
    return new TarFileWriter(DEFERRED, limit);
  }

  /** Bytes of the archive so far (written or buffered). */
  get bytes(): number {
    return this.total;
  }

  directory(meta: EntryMeta): void {
    this.header(meta, '5', 0, {});
  }

  symlink(meta: EntryMeta, target: string): void {
    this.header(meta, '2', 0, { linkname: target });
  }

  /** A second name of a file already in this archive under `target`. */
  hardLink(meta: EntryMeta, target: string): void {
    this.header(meta, '1', 0, { linkname: target });
  }

  /** Starts a file of `size` bytes: then exactly `size` bytes through `data`, then `endFile`. */
  beginFile(meta: EntryMeta, size: number): void {
    this.header(meta, '0', size, {});
    this.dataLeft = size;
  }

  /**
   * Starts a sparse file of `size` bytes holding only `regions` (sorted, apart): then the
   * regions' bytes in order through `data`, then `endFile`.
   */
  beginSparseFile(meta: EntryMeta, size: number, regions: readonly Region[]): void {
    const map = sparseMap(size, regions);
    const stored = map.length + regions.reduce((sum, r) => sum + r.length, 0);
    const name = meta.path.split('/').at(-1) ?? meta.path;
    this.header({ ...meta, path: `GNUSparseFile.0/${name}` }, '0', stored, {
      pax: {
        'GNU.sparse.major': '1',
        'GNU.sparse.minor': '0',
        'GNU.sparse.name': meta.path,
        'GNU.sparse.realsize': String(size),
      },
    });
    this.put(map);
    this.dataLeft = stored - map.length;
  }

  data(chunk: Buffer): void {
    if (chunk.length > this.dataLeft) throw new Error('tar: more data than the entry declared');
    this.dataLeft -= chunk.length;
    this.put(chunk);
  }

  /** A deferred archive only: the current entry's next `length` bytes come from a staged copy. */
  stagedData(staged: StagedData): void {
    if (this.fd !== DEFERRED) throw new Error('tar: staged data in an archive written at once');
    if (staged.length > this.dataLeft) throw new Error('tar: more data than the entry declared');
    if (this.total + staged.length > this.limit) {
      throw new SnapshotLimitError(this.total + staged.length, this.limit);
    }
    this.flush();
    this.dataLeft -= staged.length;
    this.total += staged.length;
    this.segments.push(staged);
  }

  /**
   * Writes a finished deferred archive to `out`, off the event loop's thread (the next
   * step runs meanwhile). Reads only the staged copies, never the workspace.
   */
  async writeTo(out: FileHandle): Promise<void> {
    if (this.fd !== DEFERRED) throw new Error('tar: this archive was written at once');
    const chunk = Buffer.alloc(1 << 20);
    for (const segment of this.segments) {
      if (Buffer.isBuffer(segment)) {
        await out.write(segment);
        continue;
      }
      const source = await open(segment.file, 'r');
      try {
        for (let done = 0; done < segment.length;) {
          const want = Math.min(chunk.length, segment.length - done);
          const { bytesRead } = await source.read(chunk, 0, want, done);
          // a copy shorter than the size taken: zeros to the entry's declared size
          if (bytesRead < want) chunk.fill(0, bytesRead, want);
          await out.write(chunk, 0, want);
          done += want;
        }
      } finally {
        await source.close();
      }
    }
  }

  endFile(): void {
    if (this.dataLeft !== 0) throw new Error('tar: less data than the entry declared');
    this.pad();
  }

  /** The end-of-archive blocks, and everything flushed. */
  finish(): void {
    this.put(Buffer.alloc(END_OF_ARCHIVE));
    this.flush();
  }

  flush(): void {
    if (this.fd === DEFERRED) {
      if (this.used > 0) this.segments.push(Buffer.from(this.buffer.subarray(0, this.used)));
      this.used = 0;
      return;
    }
    let at = 0;
    while (at < this.used) at += writeSync(this.fd, this.buffer, at, this.used - at);
    this.used = 0;
  }

  private header(
    meta: EntryMeta,
    type: '0' | '1' | '2' | '5',
    size: number,
    extra: { linkname?: string; pax?: Record<string, string> },
  ): void {
    const name = type === '5' ? `${meta.path}/` : meta.path;
    const pax: Record<string, string> = { ...extra.pax };
    if (!fitsField(name, 100)) pax['path'] = name;
    if (extra.linkname !== undefined && !fitsField(extra.linkname, 100)) {
      pax['linkpath'] = extra.linkname;
    }
    if (size > MAX_USTAR_SIZE) pax['size'] = String(size);
    if (meta.uid > MAX_USTAR_ID) pax['uid'] = String(meta.uid);
    if (meta.gid > MAX_USTAR_ID) pax['gid'] = String(meta.gid);
    if (Object.keys(pax).length > 0) {
      const records = paxRecords(pax);
      this.put(ustarHeader({ ...meta, path: 'PaxHeader' }, 'x', records.length, undefined));
      this.put(records);
      this.pad();
    }
    this.put(
      ustarHeader(
        { ...meta, path: fitsField(name, 100) ? name : asciiCut(name, 100) },
        type,
        size > MAX_USTAR_SIZE ? 0 : size,
        extra.linkname === undefined
          ? undefined
          : fitsField(extra.linkname, 100)
            ? extra.linkname
            : asciiCut(extra.linkname, 100),
      ),
    );
  }

  private pad(): void {
    const rest = this.total % BLOCK;
    if (rest !== 0) this.put(Buffer.alloc(BLOCK - rest));
  }

  private put(bytes: Buffer): void {
    if (this.total + bytes.length > this.limit) {
      throw new SnapshotLimitError(this.total + bytes.length, this.limit);
    }
    this.total += bytes.length;
    if (bytes.length > this.buffer.length - this.used) {
      this.flush();
      if (bytes.length > this.buffer.length && this.fd === DEFERRED) {
        this.segments.push(Buffer.from(bytes));
        return;
      }
      if (bytes.length > this.buffer.length) {
        let at = 0;
        while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at);
        return;
      }
    }
    this.used += bytes.copy(this.buffer, this.used);
  }
}

/**
 * Bytes an entry's headers take at most besides its data: the ustar header, and a PAX
 * header whose records (a long path or link target, the sparse keys) fit in this bound.
 */
export function entryOverhead(path: string, linkname = ''): number {
  return 2 * BLOCK + roundUp(2 * Buffer.byteLength(path) + Buffer.byteLength(linkname) + 256);
}

/** Bytes a sparse entry's data area takes: the map, then the regions' bytes. */
export function sparseStoredSize(size: number, regions: readonly Region[]): number {
  return sparseMap(size, regions).length + roundUp(regions.reduce((sum, r) => sum + r.length, 0));
}

export function roundUp(bytes: number): number {
  return Math.ceil(bytes / BLOCK) * BLOCK;
}

/**
 * PAX 1.0 sparse map: the number of entries, then offset and length of each, one decimal
 * number a line, padded to a block. A file ending in a hole gets a last empty region at
 * its end, as GNU tar writes it, so the size is right for any reader.
 */
function sparseMap(size: number, regions: readonly Region[]): Buffer {
  const all = [...regions];
  const last = all.at(-1);
  if (!last || last.offset + last.length < size) all.push({ offset: size, length: 0 });
  const text = [String(all.length), ...all.flatMap((r) => [String(r.offset), String(r.length)])]
    .map((n) => `${n}\n`)
    .join('');
  const map = Buffer.alloc(roundUp(text.length));
  map.write(text, 'ascii');
  return map;
}

function paxRecords(pax: Record<string, string>): Buffer {
  const parts = Object.entries(pax).map(([key, value]) => {
    const body = ` ${key}=${value}\n`;
    const bodyBytes = Buffer.byteLength(body);
    // the length counts its own digits
    let length = bodyBytes + String(bodyBytes).length;
    if (String(length).length !== String(bodyBytes).length)
      length = bodyBytes + String(length).length;
    return `${length}${body}`;
  });
  return Buffer.from(parts.join(''), 'utf8');
}

function ustarHeader(
  meta: EntryMeta,
  type: string,
  size: number,
  linkname: string | undefined,
): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(meta.path, 0, 100, 'ascii');
  block.write(octal(meta.mode & 0o7777, 7), 100, 'ascii');
  block.write(octal(meta.uid > MAX_USTAR_ID ? 0 : meta.uid, 7), 108, 'ascii');
  block.write(octal(meta.gid > MAX_USTAR_ID ? 0 : meta.gid, 7), 116, 'ascii');
  block.write(octal(size, 11), 124, 'ascii');
  block.write(octal(Math.max(0, Math.floor(meta.mtimeMs / 1000)), 11), 136, 'ascii');
  block.write(type, 156, 'ascii');
  if (linkname !== undefined) block.write(linkname, 157, 100, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  // the checksum is computed with its own field as spaces
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'ascii');
  return block;
}

function octal(value: number, digits: number): string {
  return `${value.toString(8).padStart(digits, '0')}\u0000`;
}

/** Plain ASCII with no NUL that fits `max` bytes: the ustar field holds it as it is. */
function fitsField(text: string, max: number): boolean {
  // eslint-disable-next-line no-control-regex -- the printable ASCII range, by its codes
  return text.length <= max && /^[\u0001-\u007f]*$/.test(text);
}

/** A stand-in for a field whose real value is in the PAX header. */
function asciiCut(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- anything not ASCII becomes '_'
  return text.replace(/[^\u0001-\u007f]/g, '_').slice(0, max);
}
