/**
 * Reading a run's history file: one RunEvent per line, as emitted. Damage is expected
 * (a crash can cut the last line in half; a disk can flip bytes), so every bad line is
 * skipped and reported with its line number, never fatal.
 */
import { looksLikeRunEvent, type RunEvent } from '@shared/events';

export interface ParsedLog {
  events: RunEvent[];
  /** the exact text of each event's line, for replay byte for byte */
  lines: string[];
  warnings: string[];
  /** the last line had no newline and did not parse: written when the process died */
  hasTornTail: boolean;
}

export function parseRunLog(text: string, expectedRunId: string | null, source: string): ParsedLog {
  const events: RunEvent[] = [];
  const lines: string[] = [];
  const warnings: string[] = [];
  let hasTornTail = false;
  let runId = expectedRunId;
  let lastSeq = 0;
  const raw = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i] ?? '';
    const isLast = i === raw.length - 1;
    if (line.trim() === '') continue;
    const where = `${source} line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (isLast && !endsWithNewline) {
        hasTornTail = true;
        warnings.push(
          `${where}: the last event was cut off (the app stopped while writing it); skipped`,
        );
      } else {
        warnings.push(`${where}: not valid JSON; skipped`);
      }
      continue;
    }
    if (!looksLikeRunEvent(value)) {
      warnings.push(`${where}: not a run event; skipped`);
      continue;
    }
    runId ??= value.runId;
    if (value.runId !== runId) {
      warnings.push(`${where}: belongs to run ${value.runId}, not ${runId}; skipped`);
      continue;
    }
    if (value.seq <= lastSeq) {
      warnings.push(`${where}: seq ${value.seq} repeats or goes back (after ${lastSeq}); skipped`);
      continue;
    }
    if (value.seq !== lastSeq + 1) {
      warnings.push(`${where}: events ${lastSeq + 1}..${value.seq - 1} are missing`);
    }
    lastSeq = value.seq;
    events.push(value);
    lines.push(line);
  }
  return { events, lines, warnings, hasTornTail };
}
