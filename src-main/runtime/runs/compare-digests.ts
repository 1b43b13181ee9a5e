/**
 * Step digests stored beside a finished run's history, so comparing runs reads neither
 * history again (issue 27: two 10,000-step histories were read and parsed on every compare).
 *
 * - `<runId>.compare.json`: the run's facts, each step's head (step-head.ts: what the
 *   alignment needs, the texts as hashes) and where each step's digest starts in
 *   `<runId>.compare.steps`, and the size and time of the history they were made from;
 * - `<runId>.compare.steps`: the digests themselves, one JSON line per step, read a page
 *   at a time for the rows the compare view shows.
 *
 * A history that changed since (a continued run, an import over it) or an unreadable or
 * older file is not used: the digests are made again from the history and stored anew.
 * Histories recorded before these files existed get them on their first comparison.
 * Each file is written to a temporary name and renamed, the steps first: a crash leaves
 * a pair whose index does not match its steps (not used), never a wrong answer.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { HeadedRun } from '@shared/compare/diff-runs';
import type { StepHead } from '@shared/compare/step-head';
import type { RunFacts, StepDigest } from '@shared/compare/types';
import { writeFileAtomic } from '../config/atomic-write';

/** Bumped whenever what a digest holds changes: older files are then made again. */
export const DIGEST_VERSION = 1;
export const DIGEST_EXTS = ['.compare.json', '.compare.steps'] as const;

export interface DigestFiles {
  /** the run's history (`<runId>.jsonl`) */
  log: string;
  index: string;
  steps: string;
}

export function digestFilesOf(logPath: string): DigestFiles {
  const base = logPath.replace(/\.jsonl$/, '');
  return { log: logPath, index: `${base}${DIGEST_EXTS[0]}`, steps: `${base}${DIGEST_EXTS[1]}` };
}

interface LogStamp {
  size: number;
  mtimeMs: number;
}

interface DigestIndex {
  version: number;
  log: LogStamp;
  facts: RunFacts;
  heads: StepHead[];
  /** byte offset of each step's line in the steps file, then the file's length */
  offsets: number[];
}

/** A run read from its stored digests: heads in memory, the digests' texts on disk. */
export interface StoredDigests extends HeadedRun {
  offsets: number[];
}

function stampOf(path: string): LogStamp | undefined {
  try {
    const stats = statSync(path);
    return { size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return undefined;
  }
}

/** The stored digests, or undefined when missing, older, damaged or made from another history. */
export function loadDigests(files: DigestFiles): StoredDigests | undefined {
  const stamp = stampOf(files.log);
  if (!stamp) return undefined;
  let index: DigestIndex;
  try {
    index = JSON.parse(readFileSync(files.index, 'utf8')) as DigestIndex;
  } catch {
    return undefined;
  }
  if (
    index?.version !== DIGEST_VERSION ||
    index.log?.size !== stamp.size ||
    index.log.mtimeMs !== stamp.mtimeMs ||
    !Array.isArray(index.heads) ||
    !Array.isArray(index.offsets) ||
    index.offsets.length !== index.heads.length + 1 ||
    stampOf(files.steps)?.size !== index.offsets.at(-1)
  ) {
    return undefined;
  }
  return { facts: index.facts, heads: index.heads, offsets: index.offsets };
}

/**
 * Stores a finished run's digests, made from the history as it is now (`stamp` taken
 * before it was read: a history that grew meanwhile leaves a pair that is not used).
 */
export function saveDigests(
  files: DigestFiles,
  stamp: LogStamp,
  run: HeadedRun,
  steps: readonly StepDigest[],
): StoredDigests {
  const lines = steps.map((step) => `${JSON.stringify(step)}\n`);
  const offsets = [0];
  for (const line of lines) offsets.push(offsets.at(-1)! + Buffer.byteLength(line));
  const { title: _title, ...facts } = run.facts;
  const index: DigestIndex = {
    version: DIGEST_VERSION,
    log: stamp,
    facts,
    heads: run.heads,
    offsets,
  };
  writeFileAtomic(files.steps, lines.join(''));
  writeFileAtomic(files.index, JSON.stringify(index));
  return { facts, heads: run.heads, offsets };
}

export function logStamp(files: DigestFiles): LogStamp | undefined {
  return stampOf(files.log);
}

/** Steps from..to (exclusive) of the stored digests, read from their byte range alone. */
export function readStoredSteps(
  files: DigestFiles,
  stored: StoredDigests,
  from: number,
  to: number,
): StepDigest[] {
  const start = Math.max(0, Math.min(from, stored.heads.length));
  const end = Math.max(start, Math.min(to, stored.heads.length));
  if (start === end) return [];
  const first = stored.offsets[start]!;
  const length = stored.offsets[end]! - first;
  const buffer = Buffer.alloc(length);
  const fd = openSync(files.steps, 'r');
  try {
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, first + read);
      if (n === 0) throw new Error(`${files.steps} is shorter than its index says`);
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  return buffer
    .toString('utf8')
    .split('\n')
    .slice(0, end - start)
    .map((line) => JSON.parse(line) as StepDigest);
}
