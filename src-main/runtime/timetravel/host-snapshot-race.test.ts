/**
 * Issue 24 item 1 without Docker: the host-side snapshot never reads or lists anything
 * outside the workspace, also while a process keeps swapping the workspace's files for
 * symlinks to a host-only file and its folders for symlinks to that file's folder (the
 * check-then-use race: a walk that looks with lstat and later reads by path follows the
 * link). The flipper is a Node child process; the swaps are atomic renames, so every
 * name is always either a real entry or a link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeHostSnapshot } from './host-snapshot';
import { countMarker, hostSecret, newMarker } from './testing/host-secret';

const FILES = 400;
const FOLDERS = 100;
const SNAPSHOTS = 200;
/** the workspace's files are exactly the secret's size: a read through a link fits the header */
const SIZE = 64;

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

let flipper: ChildProcess | undefined;
afterEach(() => {
  flipper?.kill('SIGKILL');
  flipper = undefined;
});

describe('host snapshot against a symlink-swapping process', () => {
  it('never reads a host file through a swapped file, nor lists a host folder through a swapped folder', async () => {
    const marker = newMarker();
    const secret = hostSecret(marker, SIZE);
    const ws = mkdtempSync(join(tmpdir(), 'wb-race-ws-'));
    const out = mkdtempSync(join(tmpdir(), 'wb-race-out-'));
    for (let i = 0; i < FILES; i++) writeFileSync(join(ws, `f${i}`), Buffer.alloc(SIZE, 'w'));
    for (let i = 0; i < FOLDERS; i++) {
      mkdirSync(join(ws, `d${i}`));
      // the secret's name: a read through the swapped folder by path would take the secret
      writeFileSync(join(ws, `d${i}`, 'secret'), Buffer.alloc(SIZE, 'w'));
    }
    flipper = spawn(
      process.execPath,
      ['-e', FLIPPER, ws, secret.file, secret.dir, String(FILES), String(FOLDERS), String(SIZE)],
      { stdio: 'ignore' },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    let mark: number | undefined;
    const failures: string[] = [];
    const listed: string[] = [];
    let archived = 0;
    for (let i = 0; i < SNAPSHOTS; i++) {
      try {
        const taken = await takeHostSnapshot(ws, join(out, `step-${i}.tar`), mark);
        mark = taken.mark;
        archived += taken.archived.length;
        listed.push(...taken.manifest.map((e) => e.path).filter((p) => p.includes(marker)));
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    flipper.kill('SIGKILL');

    expect({ leaks: countMarker(out, marker), listed: listed.length }).toEqual({
      leaks: 0,
      listed: 0,
    });
    // The swapped names were taken all along (as files, links or folders), only never followed.
    expect(archived).toBeGreaterThan(SNAPSHOTS * 20);
    // A swap in the middle of a read is not an error: the file changed, the next one takes it.
    expect(failures).toEqual([]);
  }, 120_000);
});
