/**
 * Each ended run's experiment facts (its scores, steps, tokens, cost, duration and
 * verdict: `ExperimentRunFacts`), kept in one small file beside the experiment's record,
 * `<experiments>/facts/ID.json`, so that opening a report reads that file instead of every
 * run's history (1,000 histories took 1.2 s on the host; docs/experiments.md).
 *
 * The file is only a cache of what the histories say: a run not in it (the file missing,
 * unreadable, of another version or batch, or written before the run ended) is read from
 * its history and added; a run it names that the batch no longer holds, or that was
 * removed from the history, is dropped. So the report is the same with or without it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentRecord, ExperimentRunFacts } from '@shared/experiments/experiment-types';
import { writeFileAtomic } from '../config/atomic-write';

const VERSION = 1;

interface FactsFile {
  version: number;
  experimentId: string;
  batchId: string;
  runs: ExperimentRunFacts[];
}

/** A run's facts by its place in the experiment: the same run id at one place only. */
export function factsKey(f: {
  runId: string;
  itemIndex: number;
  variantIndex: number;
  repeat: number;
}): string {
  return `${f.runId}\0${f.itemIndex}\0${f.variantIndex}\0${f.repeat}`;
}

export function factsFile(dir: string, experimentId: string): string {
  return join(dir, 'facts', `${experimentId}.json`);
}

/** The stored facts by key; empty when there is no usable file (they are then rebuilt). */
export function readFacts(dir: string, record: ExperimentRecord): Map<string, ExperimentRunFacts> {
  const facts = new Map<string, ExperimentRunFacts>();
  let file: Partial<FactsFile>;
  try {
    file = JSON.parse(readFileSync(factsFile(dir, record.experimentId), 'utf8')) as FactsFile;
  } catch {
    return facts;
  }
  if (file.version !== VERSION || file.batchId !== record.batchId || !Array.isArray(file.runs))
    return facts;
  for (const run of file.runs) if (isFacts(run)) facts.set(factsKey(run), run);
  return facts;
}

export function writeFacts(
  dir: string,
  record: ExperimentRecord,
  runs: Iterable<ExperimentRunFacts>,
): void {
  const file: FactsFile = {
    version: VERSION,
    experimentId: record.experimentId,
    batchId: record.batchId,
    runs: [...runs],
  };
  mkdirSync(join(dir, 'facts'), { recursive: true });
  writeFileAtomic(factsFile(dir, record.experimentId), `${JSON.stringify(file)}\n`, 0o644);
}

/** Enough of the shape that a hand-edited or truncated entry is read again from its history. */
function isFacts(value: unknown): value is ExperimentRunFacts {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Partial<ExperimentRunFacts>;
  return (
    typeof f.runId === 'string' &&
    typeof f.itemIndex === 'number' &&
    typeof f.variantIndex === 'number' &&
    typeof f.repeat === 'number' &&
    typeof f.scores === 'object' &&
    f.scores !== null &&
    typeof f.trajectory === 'object' &&
    f.trajectory !== null
  );
}
