/**
 * A renamed run's title in its exported `.jsonl` (docs/events.md, "Export and import"):
 * one line `{"runTitle":TITLE}` after the event lines, so the name the user gave a run
 * survives export and import (issue 25 item 11). The history keeps the title beside the
 * log (`<runId>.title`), never as an event, so it travels as a line of its own, like the
 * images; readers of an export skip it as not an event, quietly.
 */
import { isImageLineValue } from './export-images';
import { isUserActionLineValue, mentionsUserAction } from './export-user-actions';
import { normalizeTitle } from './run-titles';

const TITLE_KEY = 'runTitle';

export function titleLine(title: string): string {
  return JSON.stringify({ [TITLE_KEY]: title });
}

/** A parsed line is a title line when it is an object whose only key is `runTitle`. */
export function isTitleLineValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === TITLE_KEY;
}

/** An export's lines that are not events (images, the title, user actions): skipped quietly. */
export function isExtraLineValue(value: unknown): boolean {
  return isImageLineValue(value) || isTitleLineValue(value) || isUserActionLineValue(value);
}

/** Whether a line is such a line; only a line that mentions one of the keys is parsed. */
export function isExtraLine(line: string): boolean {
  if (!line.includes('runImage') && !line.includes(TITLE_KEY) && !mentionsUserAction(line)) {
    return false;
  }
  try {
    return isExtraLineValue(JSON.parse(line));
  } catch {
    return false;
  }
}

/**
 * Takes the title line out of an export's text (a blank line stays in its place, so the
 * event reader's line numbers hold). The title is cleaned as a rename cleans it; a line
 * that is not a usable title is reported and left out. The last title line wins.
 */
export function splitTitleLine(
  content: string,
  source: string,
): { events: string; title?: string; warnings: string[] } {
  if (!content.includes(TITLE_KEY)) return { events: content, warnings: [] };
  const lines = content.split('\n');
  const warnings: string[] = [];
  let title: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(TITLE_KEY)) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // left to the event reader, which says it is not JSON
    }
    if (!isTitleLineValue(value)) continue;
    lines[i] = '';
    const given: unknown = (value as Record<string, unknown>)[TITLE_KEY];
    const clean = typeof given === 'string' ? normalizeTitle(given) : undefined;
    if (clean === undefined) warnings.push(`${source} line ${i + 1}: not a usable title; skipped`);
    else title = clean;
  }
  return { events: lines.join('\n'), ...(title === undefined ? {} : { title }), warnings };
}
