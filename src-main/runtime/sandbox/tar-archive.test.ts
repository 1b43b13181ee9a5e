/**
 * The tar writer and reader against the system's GNU tar (a real, independent
 * implementation): what we write, tar extracts byte for byte; what tar writes (long and
 * non-ASCII names, symlinks, folders), we read.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTar, parseTar } from './tar-archive';

const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const longName = `${'deep/'.repeat(30)}file-with-a-long-name.txt`;

describe('tar', () => {
  it('writes archives GNU tar extracts byte for byte, with modes and long/unicode names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-tar-'));
    const archive = await createTar([
      { path: 'bin.dat', data: allBytes, mode: 0o600 },
      { path: 'sub', type: 'directory' },
      { path: 'sub/héllo wörld.txt', data: 'grüße\n' },
      { path: longName, data: 'long\n', mode: 0o755 },
      { path: 'empty.txt', data: '' },
    ]);
    writeFileSync(join(dir, 'a.tar'), archive);
    mkdirSync(join(dir, 'out'));
    execFileSync('tar', ['-xf', join(dir, 'a.tar'), '-C', join(dir, 'out')]);
    expect(readFileSync(join(dir, 'out/bin.dat')).equals(allBytes)).toBe(true);
    expect(statSync(join(dir, 'out/bin.dat')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'out/sub/héllo wörld.txt'), 'utf8')).toBe('grüße\n');
    expect(readFileSync(join(dir, 'out', longName), 'utf8')).toBe('long\n');
    expect(statSync(join(dir, 'out', longName)).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir, 'out/empty.txt'), 'utf8')).toBe('');
  });

  it('reads what GNU tar writes: PAX and GNU long names, folders, symlinks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-tar-'));
    const src = join(dir, 'src');
    mkdirSync(join(src, 'ünï'), { recursive: true });
    writeFileSync(join(src, 'ünï', 'data.bin'), allBytes);
    mkdirSync(join(src, longName.split('/').slice(0, -1).join('/')), { recursive: true });
    writeFileSync(join(src, longName), '123\n');
    symlinkSync('/etc/passwd', join(src, 'link'));
    for (const format of ['pax', 'gnu']) {
      const archive = execFileSync('tar', [`--format=${format}`, '-cf', '-', '-C', src, '.']);
      const entries = await parseTar(archive);
      const byPath = new Map(entries.map((e) => [e.path.replace(/^\.\//, ''), e]));
      expect(byPath.get('ünï/data.bin')?.data.equals(allBytes), format).toBe(true);
      expect(byPath.get(longName)?.data.toString(), format).toBe('123\n');
      expect(byPath.get('ünï/')?.type ?? byPath.get('ünï')?.type, format).toBe('directory');
      expect(byPath.get('link'), format).toMatchObject({
        type: 'symlink',
        linkTarget: '/etc/passwd',
      });
    }
  });

  it('round-trips through its own reader', async () => {
    const entries = await parseTar(
      await createTar([
        { path: 'a.txt', data: 'x', uid: 1000, gid: 1000, mtime: new Date(1_700_000_000_000) },
      ]),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ path: 'a.txt', type: 'file', uid: 1000, gid: 1000 });
    expect(entries[0]?.mtime.getTime()).toBe(1_700_000_000_000);
  });

  it('rejects damaged archives instead of returning garbage', async () => {
    const archive = await createTar([{ path: 'a.txt', data: 'hello' }]);
    const corrupt = Buffer.from(archive);
    corrupt[10] = (corrupt[10] ?? 0) ^ 0xff;
    await expect(parseTar(corrupt)).rejects.toThrow(/checksum/);
    await expect(parseTar(archive.subarray(0, 514))).rejects.toThrow(/truncated/);
    await expect(createTar([{ path: 'a\0b', data: '' }])).rejects.toThrow(/NUL/);
  });

  it('streams: reads an archive from a stream as it arrives (large workspaces)', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const archive = await createTar([
      { path: 'big.bin', data: big },
      { path: 'small.txt', data: 'ok' },
    ]);
    const chunks = Array.from({ length: Math.ceil(archive.length / 65536) }, (_, i) =>
      archive.subarray(i * 65536, (i + 1) * 65536),
    );
    const entries = await parseTar(Readable.from(chunks));
    expect(entries.map((e) => [e.path, e.data.length])).toEqual([
      ['big.bin', big.length],
      ['small.txt', 2],
    ]);
  });

  it('writes names over 255 bytes (beyond ustar prefix + name) through PAX', async () => {
    const deep = `${'a'.repeat(120)}/${'b'.repeat(120)}/${'c'.repeat(120)}.txt`;
    const [entry] = await parseTar(await createTar([{ path: deep, data: 'x' }]));
    expect(entry?.path).toBe(deep);
  });
});
