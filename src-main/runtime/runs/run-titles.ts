/**
 * A run's title (history rename) and the removal of a run's files. The title lives
 * beside the log in `<runId>.title` rather than in the index, because the index is only
 * a cache rebuilt from the logs: a title kept there would vanish with it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write';
import { DIGEST_EXTS } from './compare-digests';

/** Longer titles are cut; the history row shows one line. */
export const MAX_TITLE_CHARS = 200;

const TITLE_EXT = '.title';

export function titlePath(dir: string, runId: string): string {
  return join(dir, `${runId}${TITLE_EXT}`);
}

/** The saved title, or undefined when the run was never renamed. */
export function readTitle(dir: string, runId: string): string | undefined {
  try {
    const text = readFileSync(titlePath(dir, runId), 'utf8').trim();
    return text === '' ? undefined : text.slice(0, MAX_TITLE_CHARS);
  } catch {
    return undefined;
  }
}

/** Saves a title; a blank one removes it (the task is shown again). */
export function writeTitle(dir: string, runId: string, title: string): string | undefined {
  const clean = normalizeTitle(title);
  if (clean === undefined) rmSync(titlePath(dir, runId), { force: true });
  else writeFileAtomic(titlePath(dir, runId), clean, 0o600);
  return clean;
}

/** One line, trimmed, at most MAX_TITLE_CHARS; undefined when nothing is left. */
export function normalizeTitle(title: string): string | undefined {
  const clean = title
    // eslint-disable-next-line no-control-regex -- control characters would break the row
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, MAX_TITLE_CHARS);
  return clean === '' ? undefined : clean;
}

const IMPORTED_EXT = '.imported';

/**
 * Marks a run as imported, beside its log (not in the index, a cache): whatever its
 * history says about folders and sessions came from another machine.
 */
export function markImported(dir: string, runId: string, source: string): void {
  writeFileAtomic(
    join(dir, `${runId}${IMPORTED_EXT}`),
    `${JSON.stringify({ source, importedAt: new Date().toISOString() })}\n`,
    0o600,
  );
}

/** The run id of an import mark's file name, or undefined when the name is not one. */
export function importedRunOf(fileName: string): string | undefined {
  return fileName.endsWith(IMPORTED_EXT) ? fileName.slice(0, -IMPORTED_EXT.length) : undefined;
}

/** Removes every file the history keeps for a run: its log, owner mark, title and images. */
export function removeRunFiles(dir: string, runId: string): void {
  for (const ext of ['.jsonl', '.owner', TITLE_EXT, IMPORTED_EXT, ...DIGEST_EXTS]) {
    rmSync(join(dir, `${runId}${ext}`), { force: true });
  }
  rmSync(join(dir, `${runId}.images`), { recursive: true, force: true });
}
