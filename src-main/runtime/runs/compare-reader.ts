/**
 * Reads a run's history for comparison, parsing only the events comparison uses. A
 * history's bulk is text the comparison does not look at: streamed deltas, the system
 * prompt on `llm.requested`, and the assistant and tool messages in memory (copies of
 * the reply and the tool output that `llm.responded` and `tool.finished` carry). Their
 * lines are recognised by the type (and role) written near the start of each line and
 * skipped unparsed, which halves the work for two long runs. A line whose head cannot
 * be read that way is parsed in full; a line that does not parse is skipped and said.
 */
import { looksLikeRunEvent, type RunEvent } from '@shared/events';
import { isExtraLineValue } from './export-title';

const HEAD = 400;
const TYPE_FIELD = /"type":"([a-z.]+)"/;
const ROLE_FIELD = /"message":\{"role":"([a-z]+)"/;

/** Event types comparison never reads (see src-shared/compare/step-digest.ts, run-facts.ts). */
const SKIPPED = new Set([
  'llm.delta',
  'llm.requested',
  'state.changed',
  'sandbox.changed',
  'memory.truncated',
]);

function isNeeded(line: string): boolean {
  const head = line.slice(0, HEAD);
  const type = TYPE_FIELD.exec(head)?.[1];
  if (type === undefined) return true;
  if (SKIPPED.has(type)) return false;
  if (type !== 'memory.appended') return true;
  const role = ROLE_FIELD.exec(head)?.[1];
  return role !== 'assistant' && role !== 'tool';
}

export interface ComparisonLog {
  events: RunEvent[];
  warnings: string[];
}

export function readForComparison(text: string, runId: string): ComparisonLog {
  const events: RunEvent[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || !isNeeded(line)) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warnings.push(`${runId}.jsonl line ${i + 1}: not valid JSON; skipped`);
      continue;
    }
    // an exported run's images and title (export-title.ts): not events, not damage
    if (isExtraLineValue(value)) continue;
    if (!looksLikeRunEvent(value) || value.runId !== runId) {
      warnings.push(`${runId}.jsonl line ${i + 1}: not an event of this run; skipped`);
      continue;
    }
    events.push(value);
  }
  return { events, warnings };
}
