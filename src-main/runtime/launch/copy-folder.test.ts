/**
 * The isolated copy of a folder (copy-folder.ts) never copies anything from outside it,
 * also while another process keeps swapping its files for symlinks to a host-only file
 * and its folders for symlinks to that file's folder (an agent of another session that
 * has the same folder mounted read-write). Links are copied as links; what is there is
 * copied as it is.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostSecret, newMarker, startFlipper } from '../timetravel/testing/host-secret';
import { copyFolder } from './copy-folder';

const FILES = 200;
const FOLDERS = 50;
const COPIES = 60;
const SIZE = 64;

let flipper: ChildProcess | undefined;
afterEach(() => {
  flipper?.kill('SIGKILL');
  flipper = undefined;
});

describe('copyFolder', () => {
  it('copies files, folders, modes and links as links; leaves out FIFOs', () => {
    const src = mkdtempSync(join(tmpdir(), 'wb-copy-src-'));
    mkdirSync(join(src, 'sub', 'deep'), { recursive: true });
    writeFileSync(join(src, 'sub', 'deep', 'a.txt'), 'alpha');
    writeFileSync(join(src, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync('/etc/passwd', join(src, 'to-passwd'));
    symlinkSync('sub/deep/a.txt', join(src, 'relative'));
    execFileSync('mkfifo', [join(src, 'pipe')]);
    mkdirSync(join(src, 'readonly'));
    writeFileSync(join(src, 'readonly', 'kept.txt'), 'kept');
    chmodSync(join(src, 'readonly'), 0o555);
    const dest = join(mkdtempSync(join(tmpdir(), 'wb-copy-dest-')), 'copy');
    copyFolder(src, dest);
    expect(readFileSync(join(dest, 'sub', 'deep', 'a.txt'), 'utf8')).toBe('alpha');
    expect(statSync(join(dest, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(dest, 'to-passwd'))).toBe('/etc/passwd');
    expect(lstatSync(join(dest, 'to-passwd')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dest, 'relative'))).toBe('sub/deep/a.txt');
    expect(() => lstatSync(join(dest, 'pipe'))).toThrow();
    expect(readFileSync(join(dest, 'readonly', 'kept.txt'), 'utf8')).toBe('kept');
    expect(statSync(join(dest, 'readonly')).mode & 0o777).toBe(0o555);
  });

  it('copies nothing from outside the folder while its names are swapped for links', async () => {
    const marker = newMarker();
    const secret = hostSecret(marker, SIZE);
    const src = mkdtempSync(join(tmpdir(), 'wb-copy-race-'));
    const out = mkdtempSync(join(tmpdir(), 'wb-copy-race-out-'));
    flipper = startFlipper(src, secret, { files: FILES, folders: FOLDERS, size: SIZE });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const failures: string[] = [];
    for (let i = 0; i < COPIES; i++) {
      try {
        copyFolder(src, join(out, `copy-${i}`));
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    flipper.kill('SIGKILL');
    // The marker is in the secret's content and in a file name of its folder. The copies
    // hold links to the secret's folder (copied as links, as they were): `find` does not
    // follow them, so only what was really copied is looked at.
    const listed = execFileSync('find', [out, '-name', `*${marker}*`])
      .toString()
      .trim();
    const copied = execFileSync('find', [out, '-type', 'f', '-print0']).toString().split('\0');
    const leaked = copied.filter(Boolean).filter((f) => readFileSync(f).includes(marker));
    expect({ leaked, listed }).toEqual({ leaked: [], listed: '' });
    expect(failures).toEqual([]);
  }, 120_000);
});
