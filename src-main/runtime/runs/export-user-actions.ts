/**
 * A run's user actions in its exported `.jsonl` (docs/events.md "User actions"): the
 * commands typed into its terminal, one line `{"userAction":RECORD}` each after the event
 * lines, so what the user did in the run's sandbox travels with the run. The history keeps
 * them in the run's user-actions log beside it (`<runId>.user-actions.jsonl`), never as
 * events; readers of an export skip these lines as not events, quietly.
 *
 * An import checks each record's shape (a file may have been edited) and its run id; one
 * that does not fit is reported and left out.
 */
import type { UserCommandRecord } from '@shared/domain/terminal';

const USER_ACTION_KEY = 'userAction';

/** Where a history's user actions are (terminal/user-actions-log.ts). */
export interface UserActionsStore {
  read(runId: string): UserCommandRecord[];
  /** the imported run's log, written whole */
  restore(runId: string, records: readonly UserCommandRecord[]): void;
}

export function userActionLine(record: UserCommandRecord): string {
  return JSON.stringify({ [USER_ACTION_KEY]: record });
}

/** A parsed line is a user-action line when it is an object whose only key is `userAction`. */
export function isUserActionLineValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === USER_ACTION_KEY;
}

export function mentionsUserAction(line: string): boolean {
  return line.includes(USER_ACTION_KEY);
}

export interface UserActionLine {
  /** as the file has it: not yet checked */
  record: unknown;
  lineNumber: number;
}

/**
 * Takes the user-action lines out of an export's text (a blank line stays in each one's
 * place, so the event reader's line numbers hold).
 */
export function splitUserActionLines(content: string): {
  events: string;
  found: UserActionLine[];
} {
  if (!content.includes(USER_ACTION_KEY)) return { events: content, found: [] };
  const lines = content.split('\n');
  const found: UserActionLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(USER_ACTION_KEY)) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // left to the event reader, which says it is not JSON
    }
    if (!isUserActionLineValue(value)) continue;
    lines[i] = '';
    found.push({ record: (value as Record<string, unknown>)[USER_ACTION_KEY], lineNumber: i + 1 });
  }
  return { events: lines.join('\n'), found };
}

/** The records of the file's run that have the shape of one, in `seq` order; the rest said. */
export function userActionRecords(
  found: readonly UserActionLine[],
  source: string,
  runId: string,
): { records: UserCommandRecord[]; warnings: string[] } {
  const warnings: string[] = [];
  const bySeq = new Map<number, UserCommandRecord>();
  for (const { record, lineNumber } of found) {
    const problem = recordProblem(record, runId);
    if (problem) {
      warnings.push(`${source} line ${lineNumber}: a user action ${problem}; skipped`);
      continue;
    }
    // only the record's own fields: nothing else of the file is kept
    const r = record as UserCommandRecord;
    bySeq.set(r.seq, {
      type: r.type,
      runId: r.runId,
      seq: r.seq,
      ts: r.ts,
      command: r.command,
      output: r.output,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      timedOut: r.timedOut,
      runState: r.runState,
      containerId: r.containerId,
    });
  }
  const records = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return { records, warnings };
}

function recordProblem(value: unknown, runId: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'is not an object';
  const r = value as Record<string, unknown>;
  if (r.type !== 'user.command') return 'is not a user.command';
  if (r.runId !== runId) return "names another run than the file's";
  const isCount = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (!isCount(r.seq) || (r.seq as number) < 1) return 'has no seq (an integer from 1)';
  if (!isCount(r.ts)) return 'has no ts';
  if (typeof r.command !== 'string' || typeof r.output !== 'string') {
    return 'has no command or output text';
  }
  if (r.exitCode !== null && !Number.isInteger(r.exitCode)) return 'has a bad exitCode';
  if (!isCount(r.durationMs) || typeof r.timedOut !== 'boolean') {
    return 'has a bad durationMs or timedOut';
  }
  if (r.runState !== 'paused' && r.runState !== 'finished') return 'has a bad runState';
  if (typeof r.containerId !== 'string') return 'has no containerId';
  return undefined;
}
