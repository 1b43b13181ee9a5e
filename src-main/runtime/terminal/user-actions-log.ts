/**
 * A run's user-actions log: `<runs dir>/<runId>.user-actions.jsonl`, one `user.command`
 * record a line, beside the run's history (docs/events.md "User actions"). It is a file
 * of its own because a history is closed at `run.finished` (the store closes its writer,
 * the summary and the comparison read it as complete), and a user looks around a finished
 * run's sandbox after that. Each record is written with a synchronous append, so a crash
 * loses at most the command that was running.
 */
import {
  appendFileSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isRunId } from '@shared/domain/ids';
import type { UserCommandRecord } from '@shared/domain/terminal';

export class UserActionsLog {
  constructor(private readonly dir: string) {}

  path(runId: string): string {
    if (!isRunId(runId)) throw new Error(`Invalid run id: ${runId}`);
    return join(this.dir, `${runId}.user-actions.jsonl`);
  }

  /** The run's records in order; a line a crash cut short is skipped. */
  read(runId: string): UserCommandRecord[] {
    const file = this.path(runId);
    if (!existsSync(file)) return [];
    const records: UserCommandRecord[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as UserCommandRecord;
        if (record.type === 'user.command') records.push(record);
      } catch {
        // the last line of a log whose process died mid-write
      }
    }
    return records;
  }

  append(record: Omit<UserCommandRecord, 'seq'>): UserCommandRecord {
    const full: UserCommandRecord = { ...record, seq: this.read(record.runId).length + 1 };
    appendFileSync(this.path(record.runId), `${JSON.stringify(full)}\n`, { mode: 0o600 });
    return full;
  }

  /** An imported run's log, written whole (to a file beside it first, then renamed). */
  restore(runId: string, records: readonly UserCommandRecord[]): void {
    const file = this.path(runId);
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, records.map((r) => `${JSON.stringify(r)}\n`).join(''), {
      mode: 0o600,
    });
    renameSync(partial, file);
  }

  remove(runId: string): void {
    rmSync(this.path(runId), { force: true });
  }
}
