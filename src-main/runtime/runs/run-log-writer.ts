/**
 * Appends one run's events to its log, and stays truthful when the disk fills up
 * (issue 12 item 9). A write the disk refuses (ENOSPC, EIO) or cuts short leaves no torn
 * line behind: the file is cut back to the last whole event. Later events wait in memory
 * (up to a cap) and are written, in order, as soon as the disk takes them again, so the
 * log is always a gapless prefix of the run. What could not be saved is reported by
 * `close()`, for the run's summary to say.
 *
 * Lines can also be queued and written together (`queue`, then `flushQueued`): the run
 * store writes a step's events in one write instead of one per event (issue 27). A batch
 * the disk takes only in part is cut back and written line by line, so the file is the
 * same gapless prefix either way.
 */
import { closeSync, fsyncSync, ftruncateSync, openSync, statSync, writeSync } from 'node:fs';

/** The file operations the writer uses; tests replace them to fill a disk on purpose. */
export interface LogIo {
  /** bytes written: less than asked means the disk took only part */
  write(fd: number, data: Buffer): number;
  truncate(fd: number, size: number): void;
}

export const realLogIo: LogIo = {
  write: (fd, data) => writeSync(fd, data),
  truncate: (fd, size) => ftruncateSync(fd, size),
};

/** Events held while the disk refuses them; past this the rest of the run is not saved. */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;
/** While writes fail, try again at most this often (each try is a failing syscall). */
const RETRY_INTERVAL_MS = 1_000;

export interface LogWriteReport {
  /** every event of the run is in the file */
  isComplete: boolean;
  /** seq of the last event in the file (0: none) */
  savedSeq: number;
  /** why events are missing, for the summary and the user */
  problem?: string;
}

export class RunLogWriter {
  private readonly fd: number;
  size: number;
  private savedSeq = 0;
  private backlog: { bytes: Buffer; seq: number }[] = [];
  /** lines handed over with `queue`, not yet offered to the disk */
  private queued: { bytes: Buffer; seq: number }[] = [];
  private backlogBytes = 0;
  /** the backlog overflowed: nothing after `savedSeq` will be written */
  private hasGivenUp = false;
  private lastError: string | null = null;
  private lastTry = 0;

  constructor(
    readonly path: string,
    private readonly io: LogIo = realLogIo,
    private readonly now: () => number = Date.now,
  ) {
    this.fd = openSync(path, 'a', 0o600);
    this.size = statSync(path).size;
  }

  /** true while events are waiting for the disk (or were given up) */
  get isFailing(): boolean {
    return this.backlog.length > 0 || this.hasGivenUp;
  }

  get error(): string | null {
    return this.lastError;
  }

  /**
   * Writes the event's line, after whatever is waiting. Returns 'failed' the first time
   * the disk refuses (so the caller can say so once), 'recovered' when a wait ends.
   */
  append(line: string, seq: number): 'ok' | 'failed' | 'recovered' | 'waiting' {
    this.queue(line, seq);
    return this.flushQueued();
  }

  /** Holds the line for the next `flushQueued` (or `append`, or `close`). */
  queue(line: string, seq: number): void {
    if (this.hasGivenUp) return;
    this.queued.push({ bytes: Buffer.from(`${line}\n`, 'utf8'), seq });
  }

  /** lines queued and not yet offered to the disk */
  get hasQueued(): boolean {
    return this.queued.length > 0;
  }

  /** Writes the queued lines, after whatever is waiting; the same answers as `append`. */
  flushQueued(): 'ok' | 'failed' | 'recovered' | 'waiting' {
    if (this.hasGivenUp) {
      this.queued = [];
      return 'waiting';
    }
    const wasFailing = this.backlog.length > 0;
    this.takeQueued();
    if (wasFailing && this.now() - this.lastTry < RETRY_INTERVAL_MS) {
      this.capBacklog();
      return 'waiting';
    }
    if (this.flush()) return wasFailing ? 'recovered' : 'ok';
    this.capBacklog();
    return wasFailing ? 'waiting' : 'failed';
  }

  /** Last attempt to write what waits, then fsync and close. */
  close(): LogWriteReport {
    if (!this.hasGivenUp) {
      this.takeQueued();
      this.flush();
    }
    try {
      fsyncSync(this.fd);
    } catch {
      // fsync is best effort (some file systems refuse it); the data was written.
    }
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    const isComplete = !this.isFailing;
    return {
      isComplete,
      savedSeq: this.savedSeq,
      ...(isComplete
        ? {}
        : {
            problem:
              `the disk refused its history (${this.lastError ?? 'write failed'}): ` +
              (this.savedSeq > 0
                ? `events after #${this.savedSeq} were not saved`
                : 'no event was saved'),
          }),
    };
  }

  private takeQueued(): void {
    for (const entry of this.queued) {
      this.backlog.push(entry);
      this.backlogBytes += entry.bytes.length;
    }
    this.queued = [];
  }

  /** Writes the backlog in order; stops at the first refusal. */
  private flush(): boolean {
    this.lastTry = this.now();
    if (this.backlog.length > 1) {
      // one write for the lot; cut back if the disk took part, then line by line below
      const last = this.backlog.at(-1)!;
      const all = Buffer.concat(
        this.backlog.map((entry) => entry.bytes),
        this.backlogBytes,
      );
      if (this.writeWhole(all)) {
        this.backlog = [];
        this.backlogBytes = 0;
        this.savedSeq = last.seq;
        return true;
      }
    }
    while (this.backlog.length > 0) {
      const next = this.backlog[0]!;
      if (!this.writeWhole(next.bytes)) return false;
      this.backlog.shift();
      this.backlogBytes -= next.bytes.length;
      this.savedSeq = next.seq;
    }
    return true;
  }

  /** One line, all or nothing: a partial write is cut back so no torn line remains. */
  private writeWhole(bytes: Buffer): boolean {
    const before = this.size;
    try {
      const written = this.io.write(this.fd, bytes);
      if (written === bytes.length) {
        this.size += written;
        return true;
      }
      this.lastError = `only ${written} of ${bytes.length} bytes were written: the disk is full`;
    } catch (error) {
      this.lastError = (error as Error).message;
    }
    try {
      this.io.truncate(this.fd, before);
    } catch {
      // The torn bytes stay; the reader skips a line that does not parse.
    }
    return false;
  }

  /** Past the cap the rest of the run is given up: the log stays a gapless prefix. */
  private capBacklog(): void {
    if (this.backlogBytes <= MAX_BACKLOG_BYTES) return;
    this.hasGivenUp = true;
    this.backlog = [];
    this.backlogBytes = 0;
  }
}
