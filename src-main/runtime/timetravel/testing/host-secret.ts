/**
 * For the snapshot race tests (issue 24 item 1): a host-only secret outside any
 * workspace, and a count of where its marker shows up in what a snapshot wrote.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A host-only folder holding `secret` (0600, `size` bytes starting with `marker`) and an
 * empty file whose name carries the marker (a listing of the folder would show it).
 */
export function hostSecret(marker: string, size: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wb-host-only-'));
  const file = join(dir, 'secret');
  writeFileSync(file, `${marker}:`.padEnd(size, 's'), { mode: 0o600 });
  writeFileSync(join(dir, `listed-${marker}`), '', { mode: 0o600 });
  return { dir, file };
}

export function newMarker(): string {
  return `HOSTONLY${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * How many times `marker` occurs in the regular files under `dir` (archives, listings, a
 * workspace). Walked by hand with lstat: Node's recursive readdir follows symlinked
 * folders, and a restored workspace holds links to the host-only folder (their text is
 * the sandbox's; following them on the host would count the secret itself).
 */
export function countMarker(dir: string, marker: string): number {
  let hits = 0;
  const needle = Buffer.from(marker);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) hits += countMarker(path, marker);
    if (!stat.isFile()) continue;
    const bytes = readFileSync(path);
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) hits++;
  }
  return hits;
}
