/**
 * Reading a run's history file: one RunEvent per line, as emitted. Damage is expected
 * (a crash can cut the last line in half; a disk can flip bytes), so every bad line is
 * skipped and reported with its line number, never fatal.
 */
import { looksLikeRunEvent, type RunEvent } from '@shared/events';
import { isExtraLine, isExtraLineValue } from './export-title';

export interface ParsedLog {
  events: RunEvent[];
  /** the exact text of each event's line, for replay byte for byte */
  lines: string[];
  warnings: string[];
  /** the last line had no newline and did not parse: written when the process died */
  hasTornTail: boolean;
}

/** A page of a log: events with seq > afterSeq, at most `limit` of them. */
export interface LogWindow {
  afterSeq: number;
  limit: number;
  /** a line at or before the page's first event (a previous page's `nextLine`) */
  startLine?: number;
}

export interface ParsedPage extends ParsedLog {
  /** more events follow the page */
  hasMore: boolean;
  /** where the next page starts */
  nextLine: number;
}

/** Folds lines into a log, checking each against the run id and the seq before it. */
export class LogReader {
  readonly log: ParsedLog = { events: [], lines: [], warnings: [], hasTornTail: false };
  private lastSeq: number;

  constructor(
    private runId: string | null,
    private readonly source: string,
    afterSeq = 0,
  ) {
    this.lastSeq = afterSeq;
  }

  /** `lineNumber` is 1-based; `isTornCandidate` for a last line with no newline */
  read(line: string, lineNumber: number, isTornCandidate: boolean): void {
    if (line.trim() === '') return;
    const where = `${this.source} line ${lineNumber}`;
    const { warnings } = this.log;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (isTornCandidate) {
        this.log.hasTornTail = true;
        warnings.push(
          `${where}: the last event was cut off (the app stopped while writing it); skipped`,
        );
      } else {
        warnings.push(`${where}: not valid JSON; skipped`);
      }
      return;
    }
    // an exported run's images and title (export-images.ts, export-title.ts) follow its
    // events: not events, not damage
    if (isExtraLineValue(value)) return;
    if (!looksLikeRunEvent(value)) {
      warnings.push(`${where}: not a run event; skipped`);
      return;
    }
    this.runId ??= value.runId;
    if (value.runId !== this.runId) {
      warnings.push(`${where}: belongs to run ${value.runId}, not ${this.runId}; skipped`);
      return;
    }
    if (value.seq <= this.lastSeq) {
      warnings.push(
        `${where}: seq ${value.seq} repeats or goes back (after ${this.lastSeq}); skipped`,
      );
      return;
    }
    if (value.seq !== this.lastSeq + 1) {
      warnings.push(`${where}: events ${this.lastSeq + 1}..${value.seq - 1} are missing`);
    }
    this.lastSeq = value.seq;
    this.log.events.push(value);
    this.log.lines.push(line);
  }
}

export function parseRunLog(text: string, expectedRunId: string | null, source: string): ParsedLog {
  const reader = new LogReader(expectedRunId, source);
  const raw = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  for (let i = 0; i < raw.length; i++) {
    reader.read(raw[i] ?? '', i + 1, i === raw.length - 1 && !endsWithNewline);
  }
  return reader.log;
}

const SEQ_FIELD = /"seq":(\d+)[,}]/;

/** The seq a line's start says (our lines carry it in their first 200 characters), if any. */
export function seqAtLineStart(start: string): number | undefined {
  const seq = SEQ_FIELD.exec(start.slice(0, 200))?.[1];
  return seq === undefined ? undefined : Number(seq);
}

/**
 * A page of a log without parsing all of it: the lines before the page are skipped by
 * their seq alone (our lines carry it near the start; a line where it cannot be read is
 * parsed in full), and parsing stops when the page is full. A 80,000-event run opens in
 * pages instead of one 26 MB answer.
 */
export function parseRunLogPage(
  text: string | SplitLog,
  expectedRunId: string | null,
  source: string,
  window: LogWindow,
): ParsedPage {
  const { raw, endsWithNewline } = typeof text === 'string' ? splitLog(text) : text;
  // A reader paging forward can say where the previous page ended, sparing the scan.
  let line =
    window.startLine !== undefined && window.startLine <= raw.length ? window.startLine : 0;
  for (; line < raw.length; line++) {
    const seq = seqAtLineStart(raw[line] ?? '');
    if (seq === undefined || seq > window.afterSeq) break;
  }
  const reader = new LogReader(expectedRunId, source, window.afterSeq);
  for (; line < raw.length && reader.log.events.length < window.limit; line++) {
    reader.read(raw[line] ?? '', line + 1, line === raw.length - 1 && !endsWithNewline);
  }
  // More events follow when a complete line is left; a torn last line is not one, but
  // is reported whatever page is read, so every reader learns the run was cut off.
  const lastIndex = raw.length - 1;
  const tail = raw[lastIndex] ?? '';
  const tailIsTorn = !endsWithNewline && tail.trim() !== '' && !parsesAsJson(tail);
  let hasMore = false;
  for (let rest = line; rest < raw.length && !hasMore; rest++) {
    if (rest === lastIndex && tailIsTorn) break;
    const next = raw[rest] ?? '';
    hasMore = next.trim() !== '' && !isExtraLine(next);
  }
  if (tailIsTorn && line <= lastIndex) reader.read(tail, lastIndex + 1, true);
  return { ...reader.log, hasMore, nextLine: line };
}

/** A log split into lines once, for readers that page through it. */
export interface SplitLog {
  raw: string[];
  endsWithNewline: boolean;
}

export function splitLog(text: string): SplitLog {
  return { raw: text.split('\n'), endsWithNewline: text.endsWith('\n') };
}

export function parsesAsJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
