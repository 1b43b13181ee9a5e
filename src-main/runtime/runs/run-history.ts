/**
 * What the run manager needs from a run history: append events as they happen, list
 * and read runs back. `RunStore` keeps it on disk (JSONL); `MemoryRunHistory` keeps it
 * in memory for tests and benchmarks that must not touch a disk.
 */
import type { MessageImage } from '@shared/domain/message';
import type { EventImage, RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import { applyToSummary } from '@shared/run-summary';
import { normalizeTitle } from './run-titles';
import type { StoredImage } from './run-images';
import { parseRunLog, type LogWindow, type ParsedLog, type ParsedPage } from './run-log';

export interface RunHistory {
  /** `line` is the event exactly as serialized for the live stream */
  append(event: RunEvent, line: string): void;
  list(): RunSummary[];
  summary(runId: string): RunSummary | undefined;
  read(runId: string): ParsedLog | undefined;
  /**
   * the history file as written, for readers that parse only the events they need
   * (comparison); histories without a file leave it out and are read with `read`
   */
  readText?(runId: string): string | undefined;
  /**
   * the history file's path, for the comparison's digests stored beside it
   * (compare-digests.ts); histories without files leave it out
   */
  logPath?(runId: string): string;
  /** a page of the run's events (see parseRunLogPage) */
  readPage(runId: string, window: LogWindow): ParsedPage | undefined;
  /**
   * claims a new run's id before anything is made for it (a fork's workspace, a copy):
   * what a process killed before the run's first event leaves is then known as its own
   * (orphan-workspaces.ts); histories without files need none
   */
  reserve?(runId: string): void;
  /** adds a complete run (an import); throws when the run id is taken */
  addLog(runId: string, text: string, summary: RunSummary): void;
  /** names the run (a blank title removes the name); undefined when there is no such run */
  rename(runId: string, title: string): RunSummary | undefined;
  /** removes the run and every file kept for it; the caller makes sure it is not running */
  remove(runId: string): boolean;
  /** releases open files and writes what is pending */
  close(): void;
  /**
   * stores a memory message's image beside the run (before the event naming it is
   * appended) and describes it; histories without files keep no images
   */
  keepImage?(runId: string, image: MessageImage): EventImage;
  /** a stored image's bytes; undefined for a bad run id or ref, or a missing file */
  readImage?(runId: string, ref: string): StoredImage | undefined;
  /** the file a stored image is in (the CLI names it); undefined for a bad id or ref */
  imagePath?(runId: string, ref: string): string | undefined;
  /**
   * stores an image of an imported run under its ref, checked (run-images.ts `restore`);
   * returns why it was not stored, or undefined
   */
  restoreImage?(runId: string, ref: string, data: Buffer): string | undefined;
}

export class MemoryRunHistory implements RunHistory {
  private readonly runs = new Map<
    string,
    { summary?: RunSummary; lines: string[]; events: RunEvent[] }
  >();

  append(event: RunEvent, line: string): void {
    let run = this.runs.get(event.runId);
    if (!run) {
      run = { lines: [], events: [] };
      this.runs.set(event.runId, run);
    }
    run.events.push(event);
    run.lines.push(line);
    const summary = applyToSummary(run.summary, event);
    if (summary) run.summary = { ...summary, lastSeq: event.seq };
  }

  list(): RunSummary[] {
    return [...this.runs.values()]
      .flatMap((r) => (r.summary ? [r.summary] : []))
      .sort((a, b) => b.startedAt - a.startedAt);
  }

  summary(runId: string): RunSummary | undefined {
    return this.runs.get(runId)?.summary;
  }

  readPage(runId: string, window: LogWindow): ParsedPage | undefined {
    const run = this.runs.get(runId);
    if (!run) return undefined;
    const start = run.events.findIndex((e) => e.seq > window.afterSeq);
    const from = start < 0 ? run.events.length : start;
    const to = from + window.limit;
    return {
      events: run.events.slice(from, to),
      lines: run.lines.slice(from, to),
      warnings: [],
      hasTornTail: false,
      hasMore: to < run.events.length,
      nextLine: Math.min(to, run.events.length),
    };
  }

  read(runId: string): ParsedLog | undefined {
    const run = this.runs.get(runId);
    if (!run) return undefined;
    return {
      events: run.events.slice(),
      lines: run.lines.slice(),
      warnings: [],
      hasTornTail: false,
    };
  }

  addLog(runId: string, text: string, summary: RunSummary): void {
    if (this.runs.has(runId)) throw new Error(`Run ${runId} is already in the history`);
    const parsed = parseRunLog(text, runId, runId);
    this.runs.set(runId, {
      summary: { ...summary, isImported: true },
      lines: parsed.lines,
      events: parsed.events,
    });
  }

  rename(runId: string, title: string): RunSummary | undefined {
    const run = this.runs.get(runId);
    if (!run?.summary) return undefined;
    const { title: _old, ...rest } = run.summary;
    const clean = normalizeTitle(title);
    run.summary = clean === undefined ? rest : { ...rest, title: clean };
    return run.summary;
  }

  remove(runId: string): boolean {
    return this.runs.delete(runId);
  }

  close(): void {}
}
