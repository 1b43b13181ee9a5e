/**
 * Run history on disk: `<dir>/<runId>.jsonl` holds a run's events, one line each,
 * appended with a synchronous write as each event happens, so a crash or SIGKILL loses
 * at most the line being written (the OS keeps what was written; fsync at the end of
 * the run covers power loss for finished runs). `index.json` caches the summaries; it
 * is only a cache: missing, damaged or stale, it is rebuilt from the logs.
 *
 * Several processes may share one home (the desktop app and a CLI run): a run being
 * written has a `<runId>.owner` file naming its process, so another process shows it as
 * running, not interrupted. A run whose log ends without `run.finished` and whose owner
 * is gone was interrupted (crash, kill, power loss).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isRunId } from '@shared/domain/ids';
import type { EventImage, RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import { applyToSummary, summarize } from '@shared/run-summary';
import { writeFileAtomic } from '../config/atomic-write';
import type { RunHistory } from './run-history';
import { RunIndexFile, type IndexEntry } from './run-index-file';
import { RunLogWriter, type LogIo } from './run-log-writer';
import { removeRunFiles } from './run-titles';
import { RunMarks } from './run-marks';
import { RunImages, type StoredImage } from './run-images';
import type { MessageImage } from '@shared/domain/message';
import { lostData, lostDataProblem, withHistoryProblem } from './history-problems';
import {
  claimRun,
  isOwnedByLiveProcess,
  readFinishRecord,
  releaseRun,
  writeFinishRecord,
} from './run-owner';
import { readLogPage, type LogCursor } from './log-file-pager';
import { parseRunLog, type LogWindow, type ParsedLog, type ParsedPage } from './run-log';

interface Writer {
  log: RunLogWriter;
  summary: RunSummary | undefined;
  /** the owner mark (and its room for a finish record) exists */
  isClaimed: boolean;
}

export interface RunStoreOptions {
  /** where warnings go (damaged lines, a rebuilt index, a failed write) */
  onWarning?: (message: string) => void;
  /** how long index updates are held back to be written together */
  indexDelayMs?: number;
  /** the log's file operations (tests fill the disk on purpose) */
  logIo?: LogIo;
}

export interface StoreStartup {
  isIndexRebuilt: boolean;
  interrupted: string[];
  warnings: string[];
}

/**
 * Events written the moment they come (issue 27 batches the others per step): a step's
 * end, and a run's start and end (the index and the run's close follow them).
 */
const WRITTEN_AT_ONCE = new Set(['step.finished', 'run.started', 'run.finished']);

export class RunStore implements RunHistory {
  private readonly indexFile: RunIndexFile;
  private readonly index: Map<string, IndexEntry>;
  private readonly writers = new Map<string, Writer>();
  /** the next turn's write of queued events (append) */
  private flushTimer: NodeJS.Immediate | null = null;
  /** the log last read in pages, kept while its file is unchanged */
  /** where the last page read ended (the next page of that run starts there) */
  private pageCursor: { runId: string; cursor: LogCursor } | null = null;
  /** titles and import marks beside the logs, re-read with the folder */
  private readonly marks: RunMarks;
  /** run ids this process claimed before their first event (reserve): claimed once */
  private readonly reserved = new Set<string>();
  /** runs whose log could not be opened: said once, not once per event */
  private readonly unwritable = new Set<string>();
  /** images beside the logs, `<runId>.images/<ref>` */
  private readonly images: RunImages;
  readonly startup: StoreStartup;

  constructor(
    readonly dir: string,
    private readonly options: RunStoreOptions = {},
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.images = new RunImages(dir);
    this.marks = new RunMarks(dir);
    this.indexFile = new RunIndexFile(dir, {
      delayMs: options.indexDelayMs ?? 200,
      warn: (message) => this.warn(message),
    });
    this.index = this.indexFile.entries;
    const warnings: string[] = [];
    const isIndexRebuilt = !this.indexFile.load(warnings);
    const interrupted = this.refresh(warnings);
    if (isIndexRebuilt || interrupted.length > 0) this.indexFile.writeNow();
    this.startup = { isIndexRebuilt, interrupted, warnings };
    for (const warning of warnings) this.warn(warning);
  }

  logPath(runId: string): string {
    if (!isRunId(runId)) throw new Error(`Invalid run id: ${runId}`);
    return join(this.dir, `${runId}.jsonl`);
  }

  append(event: RunEvent, line: string): void {
    let writer = this.writers.get(event.runId);
    if (!writer) {
      if (this.unwritable.has(event.runId)) return;
      writer = this.openWriter(event.runId);
      if (!writer) return;
    }
    const summary = applyToSummary(writer.summary, event);
    if (summary) writer.summary = { ...summary, lastSeq: event.seq };
    if (WRITTEN_AT_ONCE.has(event.type)) {
      this.reportWrite(event.runId, writer, writer.log.append(line, event.seq));
    } else {
      // the step's other events go with its end, or at the latest on the next turn of
      // the event loop (a model call or a tool waits on I/O in between)
      writer.log.queue(line, event.seq);
      this.scheduleFlush();
    }
    if (event.type === 'run.started') this.updateIndex(event.runId, writer);
    if (event.type === 'run.finished') this.closeWriter(event.runId, writer);
  }

  /** Writes every live run's queued events now (before a read, and on the next turn). */
  flushQueued(): void {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = null;
    for (const [runId, writer] of this.writers) {
      if (writer.log.hasQueued) this.reportWrite(runId, writer, writer.log.flushQueued());
    }
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setImmediate(() => {
      this.flushTimer = null;
      this.flushQueued();
    });
  }

  /** Disk full or gone: the run goes on (the live view still works); said once, and again
   * when the disk takes the waiting events after all. */
  private reportWrite(runId: string, writer: Writer, written: ReturnType<RunLogWriter['append']>) {
    if (written === 'failed') {
      this.warn(
        `Run ${runId}: writing its history failed (${writer.log.error}); ` +
          'its events are kept in memory and written when the disk takes them',
      );
    } else if (written === 'recovered') {
      this.warn(`Run ${runId}: its history is being written again`);
    }
  }

  keepImage(runId: string, image: MessageImage): EventImage {
    return this.images.keep(runId, image);
  }

  readImage(runId: string, ref: string): StoredImage | undefined {
    return this.images.read(runId, ref);
  }

  imagePath(runId: string, ref: string): string | undefined {
    return this.images.path(runId, ref);
  }

  restoreImage(runId: string, ref: string, data: Buffer): string | undefined {
    return this.images.restore(runId, ref, data);
  }

  list(): RunSummary[] {
    this.refresh([]);
    const summaries = new Map<string, RunSummary>();
    for (const [runId, entry] of this.index) summaries.set(runId, entry.summary);
    for (const [runId, writer] of this.writers) {
      if (writer.summary) summaries.set(runId, writer.summary);
    }
    return [...summaries.values()]
      .map((s) => this.marks.apply(s))
      .sort((a, b) => b.startedAt - a.startedAt);
  }

  summary(runId: string): RunSummary | undefined {
    const live = this.writers.get(runId)?.summary;
    if (live) return this.marks.apply(live);
    if (!this.index.has(runId) && isRunId(runId)) this.refresh([]);
    const summary = this.index.get(runId)?.summary;
    return summary && this.marks.apply(summary);
  }

  rename(runId: string, title: string): RunSummary | undefined {
    if (!this.summary(runId)) return undefined;
    this.marks.rename(runId, title);
    return this.summary(runId);
  }

  remove(runId: string): boolean {
    if (!isRunId(runId) || this.writers.has(runId)) return false;
    const existed = this.index.has(runId) || this.has(runId);
    removeRunFiles(this.dir, runId);
    this.marks.forget(runId);
    if (this.pageCursor?.runId === runId) this.pageCursor = null;
    if (this.index.delete(runId)) this.indexFile.schedule();
    return existed;
  }

  read(runId: string): ParsedLog | undefined {
    const text = this.logText(runId);
    return text === undefined ? undefined : parseRunLog(text, runId, `${runId}.jsonl`);
  }

  readText(runId: string): string | undefined {
    return this.logText(runId);
  }

  /**
   * Pages of one run are usually read in order (a UI opening a long run): each page reads
   * only its own bytes of the log (log-file-pager.ts), and starts where the previous one
   * ended (its cursor) instead of scanning from the top.
   */
  readPage(runId: string, window: LogWindow): ParsedPage | undefined {
    if (!isRunId(runId)) return undefined;
    this.flushQueued();
    const cursor = this.pageCursor?.runId === runId ? this.pageCursor.cursor : undefined;
    const read = readLogPage(this.logPath(runId), runId, `${runId}.jsonl`, window, cursor);
    if (!read) return undefined;
    this.pageCursor = read.cursor ? { runId, cursor: read.cursor } : null;
    return read.page;
  }

  private logText(runId: string): string | undefined {
    if (!isRunId(runId)) return undefined;
    this.flushQueued();
    try {
      return readFileSync(this.logPath(runId), 'utf8');
    } catch {
      return undefined;
    }
  }

  reserve(runId: string): void {
    try {
      claimRun(this.dir, runId);
      this.reserved.add(runId);
    } catch (error) {
      // The run still starts; its first event says again when the disk refuses it.
      this.warn(`Run ${runId}: its owner mark cannot be written (${(error as Error).message})`);
    }
  }

  /** Adds a complete log (an import): marked as imported, written atomically, then indexed. */
  addLog(runId: string, text: string, summary: RunSummary): void {
    const path = this.logPath(runId);
    if (existsSync(path)) throw new Error(`Run ${runId} is already in the history`);
    // The mark first: a crash between the two leaves a mark without a log (harmless),
    // never an imported log that passes for a run of this machine.
    this.marks.markImported(runId, 'runs import');
    writeFileAtomic(path, text, 0o600);
    this.index.set(runId, { summary, size: Buffer.byteLength(text, 'utf8') });
    this.indexFile.schedule();
  }

  has(runId: string): boolean {
    return isRunId(runId) && existsSync(this.logPath(runId));
  }

  close(): void {
    this.flushQueued();
    for (const [runId, writer] of this.writers) this.closeWriter(runId, writer);
    this.indexFile.flush();
  }

  private openWriter(runId: string): Writer | undefined {
    let log: RunLogWriter;
    try {
      // Creating the (empty) log needs no free blocks; it comes first.
      log = new RunLogWriter(this.logPath(runId), this.options.logIo);
    } catch (error) {
      this.unwritable.add(runId);
      this.warn(`Run ${runId}: its history cannot be written (${(error as Error).message})`);
      return undefined;
    }
    let isClaimed = true;
    try {
      // reserved at the run's start already: the mark is there, with its room
      if (!this.reserved.delete(runId)) claimRun(this.dir, runId);
    } catch (error) {
      isClaimed = false;
      releaseRun(this.dir, runId);
      this.warn(`Run ${runId}: its owner mark cannot be written (${(error as Error).message})`);
    }
    const writer: Writer = { log, summary: undefined, isClaimed };
    this.writers.set(runId, writer);
    return writer;
  }

  private closeWriter(runId: string, writer: Writer): void {
    this.writers.delete(runId);
    const report = writer.log.close();
    if (report.isComplete || !writer.summary) {
      releaseRun(this.dir, runId);
      this.updateIndex(runId, writer);
      return;
    }
    // The run ended but its log did not: the summary says so, here and after a restart.
    writer.summary = withHistoryProblem(writer.summary, report.savedSeq, report.problem);
    this.warn(`Run ${runId}: ${report.problem}`);
    try {
      if (!writer.isClaimed) throw new Error('there is no owner mark to write it into');
      writeFinishRecord(this.dir, runId, writer.summary);
    } catch (error) {
      releaseRun(this.dir, runId);
      this.warn(
        `Run ${runId}: how it ended could not be saved either (${(error as Error).message}); ` +
          'after a restart it will show as interrupted',
      );
    }
    this.updateIndex(runId, writer);
  }

  private updateIndex(runId: string, writer: Writer): void {
    if (!writer.summary) return;
    this.index.set(runId, { summary: writer.summary, size: writer.log.size });
    this.indexFile.schedule();
  }

  /**
   * Brings the index in line with the logs on disk: new or grown logs are re-read, logs
   * that are gone are dropped. Returns the runs found interrupted.
   */
  private refresh(warnings: string[]): string[] {
    const interrupted: string[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return interrupted;
    }
    const onDisk = new Set<string>();
    this.marks.clear();
    for (const name of names) {
      if (this.marks.take(name)) continue;
      if (!name.endsWith('.jsonl')) continue;
      const runId = name.slice(0, -'.jsonl'.length);
      if (!isRunId(runId)) continue;
      onDisk.add(runId);
      if (this.writers.has(runId)) continue;
      let size: number;
      try {
        size = statSync(join(this.dir, name)).size;
      } catch {
        continue;
      }
      const entry = this.index.get(runId);
      const isSameSize = entry !== undefined && entry.size === size;
      if (isSameSize && entry.summary.finishedAt !== undefined) continue;
      const isOwnedElsewhere = isOwnedByLiveProcess(this.dir, runId);
      // Unfinished and unchanged: up to date while "interrupted" still matches the owner.
      if (isSameSize && Boolean(entry.summary.isInterrupted) !== isOwnedElsewhere) continue;
      const parsed = this.read(runId);
      const summary = parsed ? summarize(parsed.events) : undefined;
      const lastSeq = parsed?.events.at(-1)?.seq ?? 0;
      // A log that ends early may still belong to a run that ended: the disk refused the
      // rest (a finish record says how it ended), or the file lost data afterwards.
      const known = readFinishRecord(this.dir, runId) ?? (entry && lostData(entry, size));
      if (known && summary?.finishedAt === undefined) {
        const problem = known.historyIncomplete ?? lostDataProblem(entry, size, lastSeq);
        this.index.set(runId, { summary: withHistoryProblem(known, lastSeq, problem), size });
        this.indexFile.markDirty();
        continue;
      }
      if (!parsed || !summary) {
        warnings.push(`${name} has no run.started event; it is not listed`);
        continue;
      }
      warnings.push(...parsed.warnings);
      const full: RunSummary = { ...summary, ...(lastSeq > 0 ? { lastSeq } : {}) };
      if (full.finishedAt === undefined && !isOwnedElsewhere) {
        full.isInterrupted = true;
        if (!entry?.summary.isInterrupted) interrupted.push(runId);
        releaseRun(this.dir, runId);
      }
      this.index.set(runId, { summary: full, size });
      this.indexFile.markDirty();
    }
    for (const runId of this.index.keys()) {
      if (!onDisk.has(runId)) {
        this.index.delete(runId);
        this.indexFile.markDirty();
      }
    }
    if (this.indexFile.isDirty) this.indexFile.schedule();
    return interrupted;
  }

  private warn(message: string): void {
    (this.options.onWarning ?? ((m: string) => console.error(`[workbench] ${m}`)))(message);
  }
}
