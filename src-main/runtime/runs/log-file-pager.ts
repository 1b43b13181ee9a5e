/**
 * A page of a run's history read from its file, reading only the bytes the page needs
 * (issue 27, "the host reading only the start of a log for the first page"): opening a
 * 100,000-step run read and split its whole log (hundreds of MB) before the first 1,000
 * events could be sent. Lines are found in the file's bytes a chunk at a time; lines
 * before the page are skipped by the seq at their start, as `parseRunLogPage` skips
 * them; only the page's lines are decoded and parsed. The answer is the one
 * `parseRunLogPage` gives for the whole text (log-file-pager.test.ts compares them on
 * damaged logs): a torn last line is reported on every page, with its line number.
 *
 * A cursor says where a page with events ended, so the next page (`afterSeq` = its last
 * seq) starts there; it stays valid while the file is the same and only grows (a history is appended
 * to; a rewrite or an import is a new file, a new inode).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isExtraLine } from './export-title';
import {
  LogReader,
  parsesAsJson,
  seqAtLineStart,
  type LogWindow,
  type ParsedPage,
} from './run-log';

/** bytes read at a time (tests make it small to put lines across chunk ends) */
export const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

export interface LogCursor {
  /** the file the cursor points into */
  ino: number;
  /** the page it continues: the seq the next page starts after */
  afterSeq: number;
  /** where the next page's first line starts: its byte offset and 0-based line index */
  byte: number;
  line: number;
}

interface Piece {
  bytes: Buffer;
  /** false for the file's last line when the file does not end with a newline */
  complete: boolean;
  index: number;
  start: number;
}

/** The lines of a file from a byte offset, read a chunk at a time. */
class LineSource {
  private buffer: Buffer = Buffer.alloc(0);
  private position = 0;
  private bufferStart: number;
  private fileOffset: number;
  private held: Piece | undefined;
  private ended = false;

  constructor(
    private readonly fd: number,
    private readonly size: number,
    start: number,
    private nextIndex: number,
    private readonly chunkBytes: number,
  ) {
    this.bufferStart = start;
    this.fileOffset = start;
  }

  /** where the next line not yet consumed starts */
  get cursor(): { byte: number; line: number } {
    return this.held
      ? { byte: this.held.start, line: this.held.index }
      : { byte: this.bufferStart + this.position, line: this.nextIndex };
  }

  unread(piece: Piece): void {
    this.held = piece;
  }

  next(): Piece | undefined {
    if (this.held) {
      const piece = this.held;
      this.held = undefined;
      return piece;
    }
    for (;;) {
      const start = this.bufferStart + this.position;
      const newline = this.buffer.indexOf(NEWLINE, this.position);
      if (newline !== -1) {
        const bytes = this.buffer.subarray(this.position, newline);
        this.position = newline + 1;
        return { bytes, complete: true, index: this.nextIndex++, start };
      }
      if (this.fileOffset >= this.size) {
        // the text after the last newline is the last line; when the file ends with a
        // newline it is empty and keeps its index: a line appended later takes it
        if (this.ended) return undefined;
        this.ended = true;
        const bytes = this.buffer.subarray(this.position);
        this.position = this.buffer.length;
        const index = bytes.length > 0 ? this.nextIndex++ : this.nextIndex;
        return { bytes, complete: false, index, start };
      }
      this.fill();
    }
  }

  private fill(): void {
    const want = Math.min(this.chunkBytes, this.size - this.fileOffset);
    const chunk = Buffer.allocUnsafe(want);
    const read = readSync(this.fd, chunk, 0, want, this.fileOffset);
    // a file cut shorter since it was measured ends here
    if (read === 0) {
      this.fileOffset = this.size;
      return;
    }
    this.fileOffset += read;
    const rest = this.buffer.subarray(this.position);
    this.bufferStart += this.position;
    this.buffer =
      rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, read)]) : chunk.subarray(0, read);
    this.position = 0;
  }
}

/** The file's last line when the file does not end with a newline, and where it starts. */
function unterminatedTail(
  fd: number,
  size: number,
  chunkBytes: number,
): { text: string; start: number } | undefined {
  if (size === 0) return undefined;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === NEWLINE) return undefined;
  const parts: Buffer[] = [];
  let end = size;
  while (end > 0) {
    const from = Math.max(0, end - chunkBytes);
    const chunk = Buffer.allocUnsafe(end - from);
    readSync(fd, chunk, 0, chunk.length, from);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline !== -1) {
      parts.unshift(chunk.subarray(newline + 1));
      return { text: Buffer.concat(parts).toString('utf8'), start: from + newline + 1 };
    }
    parts.unshift(chunk);
    end = from;
  }
  return { text: Buffer.concat(parts).toString('utf8'), start: 0 };
}

/** Newlines in [from, to): the line index of a byte, counted from a known line. */
function countNewlines(fd: number, from: number, to: number, chunkBytes: number): number {
  let count = 0;
  const chunk = Buffer.allocUnsafe(chunkBytes);
  for (let offset = from; offset < to;) {
    const read = readSync(fd, chunk, 0, Math.min(chunkBytes, to - offset), offset);
    if (read === 0) break;
    for (let i = chunk.indexOf(NEWLINE); i !== -1 && i < read; i = chunk.indexOf(NEWLINE, i + 1)) {
      count++;
    }
    offset += read;
  }
  return count;
}

function cursorFits(fd: number, size: number, ino: number, cursor: LogCursor | undefined) {
  if (!cursor || cursor.ino !== ino || cursor.byte > size) return false;
  if (cursor.byte === 0) return true;
  // it must still sit right after a newline (the file was only appended to)
  const before = Buffer.alloc(1);
  return readSync(fd, before, 0, 1, cursor.byte - 1) === 1 && before[0] === NEWLINE;
}

/**
 * `parseRunLogPage` of the file's text, reading only what the page needs. `cursor`, when
 * it continues this window, saves the scan to the page's first line. Undefined when the
 * file cannot be opened.
 */
export function readLogPage(
  path: string,
  expectedRunId: string | null,
  source: string,
  window: LogWindow,
  cursor?: LogCursor,
  chunkBytes = CHUNK_BYTES,
): { page: ParsedPage; cursor: LogCursor | undefined } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size, ino } = fstatSync(fd);
    const from =
      cursor?.afterSeq === window.afterSeq && cursorFits(fd, size, ino, cursor)
        ? cursor
        : { byte: 0, line: 0 };
    const lines = new LineSource(fd, size, from.byte, from.line, chunkBytes);
    // skip the lines before the page by their seq
    for (let piece = lines.next(); piece; piece = lines.next()) {
      const seq = seqAtLineStart(piece.bytes.subarray(0, 800).toString('utf8'));
      if (seq === undefined || seq > window.afterSeq) {
        lines.unread(piece);
        break;
      }
    }
    const reader = new LogReader(expectedRunId, source, window.afterSeq);
    let readTail = false;
    while (reader.log.events.length < window.limit) {
      const piece = lines.next();
      if (!piece) break;
      if (!piece.complete) readTail = true;
      reader.read(piece.bytes.toString('utf8'), piece.index + 1, !piece.complete);
    }
    const end = lines.cursor;
    const tail = readTail ? undefined : unterminatedTail(fd, size, chunkBytes);
    const tailIsTorn = tail !== undefined && tail.text.trim() !== '' && !parsesAsJson(tail.text);
    // more events follow when a complete line is left (a torn last line is not one)
    let hasMore = false;
    for (let piece = lines.next(); piece && !hasMore; piece = lines.next()) {
      const text = piece.bytes.toString('utf8');
      if (!piece.complete && tailIsTorn) break;
      hasMore = text.trim() !== '' && !isExtraLine(text);
    }
    // unless the page's scan went past it (a torn line is reported where it is reached)
    if (tail && tailIsTorn && end.byte <= tail.start) {
      const index = end.line + countNewlines(fd, end.byte, tail.start, chunkBytes);
      reader.read(tail.text, index + 1, true);
    }
    const last = reader.log.events.at(-1);
    return {
      page: { ...reader.log, hasMore, nextLine: end.line },
      // a page without events leaves no cursor: asked again, it is read again in full
      cursor: last ? { ino, afterSeq: last.seq, ...end } : undefined,
    };
  } finally {
    closeSync(fd);
  }
}
