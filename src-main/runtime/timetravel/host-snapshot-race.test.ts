/**
 * Issue 24 item 1 without Docker: the host-side snapshot never reads or lists anything
 * outside the workspace, also while a process keeps swapping the workspace's files for
 * symlinks to a host-only file and its folders for symlinks to that file's folder (the
 * check-then-use race: a walk that looks with lstat and later reads by path follows the
 * link). The flipper is a Node child process; the swaps are atomic renames, so every
 * name is always either a real entry or a link.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeHostSnapshot } from './host-snapshot';
import { countMarker, hostSecret, newMarker, startFlipper } from './testing/host-secret';

const FILES = 400;
const FOLDERS = 100;
const SNAPSHOTS = 200;
/** the workspace's files are exactly the secret's size: a read through a link fits the header */
const SIZE = 64;

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
    flipper = startFlipper(ws, secret, { files: FILES, folders: FOLDERS, size: SIZE });
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
