/**
 * The host snapshot's archive (its own tar writer) read back by GNU tar and tar-stream:
 * names of any length and script, modes, links, sparse files stored as what they cost on
 * disk, hard links stored once, FIFOs and sockets that neither block nor get read, files
 * that change size under the walk, and the caps: a file past the step's cap left out
 * with the reason, an archive past the room refused.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTar } from '../sandbox/tar-archive';
import { isHostSnapshotSupported, takeHostSnapshot } from './host-snapshot';
import { SnapshotLimitError } from './snapshot-caps';

const MB = 1024 * 1024;
const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** GNU tar extracts `archive` into a new folder. */
function untar(archive: string): string {
  const dir = temp('wb-untar-');
  execFileSync('tar', ['-xf', archive, '-C', dir]);
  return dir;
}

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

describe('takeHostSnapshot', () => {
  it('is supported here (Linux with /proc)', () => {
    expect(isHostSnapshotSupported(temp('wb-ws-'))).toBe(process.platform === 'linux');
  });

  it('writes an archive GNU tar and tar-stream read back exactly', async () => {
    const ws = temp('wb-ws-');
    const long = `${'long-name-'.repeat(12)}end`;
    mkdirSync(join(ws, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(ws, 'empty'));
    writeFileSync(join(ws, 'a.txt'), 'alpha');
    writeFileSync(join(ws, 'zero'), '');
    writeFileSync(join(ws, 'sub', 'deeper', long), 'long');
    writeFileSync(join(ws, 'sub', 'ünï-名前.txt'), 'unicode');
    const big = Buffer.alloc(3 * MB + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
    writeFileSync(join(ws, 'big.bin'), big, { mode: 0o750 });
    symlinkSync('a.txt', join(ws, 'link'));
    symlinkSync(`../${long}/${long}`, join(ws, 'long-link'));
    const out = join(temp('wb-out-'), 'step.tar');
    const taken = await takeHostSnapshot(ws, out, undefined);
    expect(taken.isFull).toBe(true);
    expect(taken.bytes).toBe(statSync(out).size);
    expect(taken.manifest.filter((e) => e.skipped)).toEqual([]);

    const dir = untar(out);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha');
    expect(readFileSync(join(dir, 'zero'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'sub', 'deeper', long), 'utf8')).toBe('long');
    expect(readFileSync(join(dir, 'sub', 'ünï-名前.txt'), 'utf8')).toBe('unicode');
    expect(readFileSync(join(dir, 'big.bin')).equals(big)).toBe(true);
    expect(statSync(join(dir, 'big.bin')).mode & 0o777).toBe(0o750);
    expect(readdirSync(join(dir, 'empty'))).toEqual([]);
    expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(execFileSync('readlink', [join(dir, 'long-link')], { encoding: 'utf8' }).trim()).toBe(
      `../${long}/${long}`,
    );

    const entries = await parseTar(readFileSync(out));
    expect(entries.map((e) => e.path.replace(/\/$/, '')).sort()).toEqual(
      [
        'a.txt',
        'big.bin',
        'empty',
        'link',
        'long-link',
        'sub',
        'sub/deeper',
        `sub/deeper/${long}`,
        'sub/ünï-名前.txt',
        'zero',
      ].sort(),
    );
  });

  it('stores a sparse file as what it costs on disk, and GNU tar restores its size and data', async () => {
    const ws = temp('wb-ws-');
    // `truncate -s 100M`: nothing on disk
    writeFileSync(join(ws, 'hole'), '');
    truncateSync(join(ws, 'hole'), 100 * MB);
    // data in the middle and at the end of a sparse file
    writeFileSync(join(ws, 'islands'), '');
    truncateSync(join(ws, 'islands'), 100 * MB);
    const fd = openSync(join(ws, 'islands'), 'r+');
    writeSync(fd, Buffer.from('middle'), 0, 6, 50 * MB + 3);
    writeSync(fd, Buffer.from('end'), 0, 3, 100 * MB - 3);
    closeSync(fd);
    const out = join(temp('wb-out-'), 'step.tar');
    const taken = await takeHostSnapshot(ws, out, undefined);
    expect(taken.bytes).toBeLessThan(64 * 1024);
    expect(taken.archived.sort()).toEqual(['hole', 'islands']);

    const dir = untar(out);
    expect(statSync(join(dir, 'hole')).size).toBe(100 * MB);
    expect(statSync(join(dir, 'islands')).size).toBe(100 * MB);
    const read = (offset: number, length: number) => {
      const f = openSync(join(dir, 'islands'), 'r');
      const buffer = Buffer.alloc(length);
      readSync(f, buffer, 0, length, offset);
      closeSync(f);
      return buffer.toString('latin1');
    };
    expect(read(50 * MB, 12)).toBe('\0\0\0middle\0\0\0');
    expect(read(100 * MB - 5, 5)).toBe('\0\0end');
    expect(read(10 * MB, 4)).toBe('\0\0\0\0');
  });

  it('stores a file with two names once: the second is a link to the first', async () => {
    const ws = temp('wb-ws-');
    writeFileSync(join(ws, 'a'), Buffer.alloc(2 * MB, 1));
    linkSync(join(ws, 'a'), join(ws, 'b'));
    const out = join(temp('wb-out-'), 'step.tar');
    const taken = await takeHostSnapshot(ws, out, undefined);
    expect(taken.bytes).toBeLessThan(2 * MB + 8 * 1024);
    const dir = untar(out);
    expect(statSync(join(dir, 'a')).ino).toBe(statSync(join(dir, 'b')).ino);
    expect(readFileSync(join(dir, 'b')).equals(Buffer.alloc(2 * MB, 1))).toBe(true);
  });

  it('lists a FIFO and a socket without opening them for data or waiting on them', async () => {
    const ws = temp('wb-ws-');
    execFileSync('mkfifo', [join(ws, 'fifo')]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(ws, 'sock'), resolve));
    writeFileSync(join(ws, 'plain'), 'p');
    try {
      const taken = await takeHostSnapshot(ws, join(temp('wb-out-'), 'step.tar'), undefined);
      expect(taken.manifest).toEqual([
        { path: 'fifo', kind: 'o' },
        { path: 'plain', kind: 'f' },
        { path: 'sock', kind: 'o' },
      ]);
      expect(taken.archived).toEqual(['plain']);
    } finally {
      server.close();
    }
  });

  it('takes a file that grows and shrinks under it without failing, each archive whole', async () => {
    const ws = temp('wb-ws-');
    writeFileSync(join(ws, 'log'), '');
    child = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const f = process.argv[1];
         for (let i = 0; ; i++) { fs.truncateSync(f, (i * 7919) % 300000); fs.appendFileSync(f, Buffer.alloc(i % 50000, 120)); }`,
        join(ws, 'log'),
      ],
      { stdio: 'ignore' },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const out = temp('wb-out-');
    let mark: number | undefined;
    for (let i = 0; i < 50; i++) {
      const taken = await takeHostSnapshot(ws, join(out, `${i}.tar`), mark);
      mark = taken.mark;
      expect(taken.bytes).toBe(statSync(join(out, `${i}.tar`)).size);
      untar(join(out, `${i}.tar`)); // a size the header did not say would fail here
    }
  });

  it('leaves out a file past the step cap with the reason; refuses an archive past the room', async () => {
    const ws = temp('wb-ws-');
    writeFileSync(join(ws, 'small'), Buffer.alloc(10_000, 1));
    writeFileSync(join(ws, 'large'), Buffer.alloc(3 * MB, 2));
    writeFileSync(join(ws, 'sparse-huge'), '');
    truncateSync(join(ws, 'sparse-huge'), 40 * 1024 * MB);
    const out = temp('wb-out-');
    const taken = await takeHostSnapshot(ws, join(out, '1.tar'), undefined, {
      stepBytes: MB,
      roomBytes: Infinity,
    });
    expect(taken.archived).toEqual(['small']);
    const skipped = Object.fromEntries(taken.manifest.map((e) => [e.path, e.skipped]));
    expect(skipped['small']).toBeUndefined();
    expect(skipped['large']).toMatch(
      /its 3\.0 MB would take .* past \[history\] snapshot_step_limit \(1\.0 MB\)/,
    );
    expect(skipped['sparse-huge']).toMatch(/sparse file of 40\.0 GB \(0 B on disk\).*not searched/);
    expect(taken.bytes).toBeLessThanOrEqual(MB);

    await expect(
      takeHostSnapshot(ws, join(out, '2.tar'), undefined, { stepBytes: 8 * MB, roomBytes: MB }),
    ).rejects.toBeInstanceOf(SnapshotLimitError);
  });

  it('does not descend past 256 nested folders, and says so', async () => {
    const ws = temp('wb-ws-');
    let path = ws;
    for (let i = 0; i < 260; i++) path = join(path, 'd');
    mkdirSync(path, { recursive: true });
    const taken = await takeHostSnapshot(ws, join(temp('wb-out-'), 's.tar'), undefined);
    const deepest = taken.manifest.at(-1);
    expect(deepest?.path.split('/')).toHaveLength(257);
    expect(deepest?.skipped).toMatch(/nested deeper than 256 folders/);
  });
});

describe('a folder moved between snapshots', () => {
  it('takes the files under its new name whatever their ctime (the listing before says they are new)', async () => {
    const ws = temp('wb-ws-');
    mkdirSync(join(ws, 'dir', 'sub'), { recursive: true });
    writeFileSync(join(ws, 'dir', 'sub', 'n.txt'), 'nested');
    const out = temp('wb-out-');
    await new Promise((resolve) => setTimeout(resolve, 30)); // written well before the mark
    const full = await takeHostSnapshot(ws, join(out, 'full.tar'), undefined);
    await new Promise((resolve) => setTimeout(resolve, 30)); // past the ctime slack
    execFileSync('mv', [join(ws, 'dir'), join(ws, 'moved')]);
    const listed = new Set(full.manifest.map((e) => e.path));
    const delta = await takeHostSnapshot(ws, join(out, 'delta.tar'), full.mark, undefined, listed);
    expect(delta.archived.sort()).toEqual(['moved', 'moved/sub', 'moved/sub/n.txt']);
    expect(readFileSync(join(untar(join(out, 'delta.tar')), 'moved', 'sub', 'n.txt'), 'utf8')).toBe(
      'nested',
    );
  });
});
