/**
 * For the race tests of the host walks (issue 24 item 1: the snapshot, the isolated
 * copy): a host-only secret outside any workspace, a process that keeps swapping a
 * folder's names for links to it, and a count of where its marker shows up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
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

/** Swaps files for links to `secret` and back, folders for links to its folder and back. */
const FLIPPER = `
const fs = require('node:fs');
const [ws, secret, secretDir, files, folders, size] = process.argv.slice(1);
const body = Buffer.alloc(Number(size), 'w');
// Each state lasts a whole pass, so a walk sees both and a late read meets the other.
for (let isLink = true; ; isLink = !isLink) {
  for (let i = 0; i < Number(files); i++) {
    const f = ws + '/f' + i;
    try {
      if (isLink) fs.symlinkSync(secret, f + '.l');
      else fs.writeFileSync(f + '.l', body);
      fs.renameSync(f + '.l', f);
    } catch {}
  }
  for (let i = 0; i < Number(folders); i++) {
    const d = ws + '/d' + i;
    try {
      if (isLink) {
        fs.renameSync(d, d + '.away');
        fs.symlinkSync(secretDir, d);
      } else {
        fs.unlinkSync(d);
        fs.renameSync(d + '.away', d);
      }
    } catch {}
  }
}
`;

/**
 * Fills `dir` with `files` files f0.. and `folders` folders d0.. (each holding a file
 * named like the secret: a read by path through a swapped folder would take the secret),
 * all `size` bytes, and starts a Node process that keeps swapping them for links to the
 * secret and its folder. The swaps are atomic renames: every name is always either a
 * real entry or a link. Kill the process when done.
 */
export function startFlipper(
  dir: string,
  secret: { dir: string; file: string },
  counts: { files: number; folders: number; size: number },
): ChildProcess {
  for (let i = 0; i < counts.files; i++) {
    writeFileSync(join(dir, `f${i}`), Buffer.alloc(counts.size, 'w'));
  }
  for (let i = 0; i < counts.folders; i++) {
    mkdirSync(join(dir, `d${i}`));
    writeFileSync(join(dir, `d${i}`, 'secret'), Buffer.alloc(counts.size, 'w'));
  }
  const args = [secret.file, secret.dir, counts.files, counts.folders, counts.size].map(String);
  return spawn(process.execPath, ['-e', FLIPPER, dir, ...args], { stdio: 'ignore' });
}
