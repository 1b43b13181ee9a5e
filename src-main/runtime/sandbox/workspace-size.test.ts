import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseByteSize, workspaceBytes } from './workspace-size';

describe('workspaceBytes', () => {
  it('adds up regular files in nested folders, without following symlinks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-ws-'));
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'one'), Buffer.alloc(1000));
    writeFileSync(join(dir, 'a', 'two'), Buffer.alloc(2000));
    writeFileSync(join(dir, 'a', 'b', 'three'), Buffer.alloc(3000));
    symlinkSync('/usr', join(dir, 'a', 'usr'));
    expect(await workspaceBytes(dir)).toBe(6000);
  });

  it('stops counting once above the given size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-ws-'));
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}`), Buffer.alloc(100));
    const counted = await workspaceBytes(dir, 250);
    expect(counted).toBeGreaterThan(250);
    expect(counted).toBeLessThan(5000);
  });

  it('is 0 for a folder that does not exist', async () => {
    expect(await workspaceBytes('/no/such/folder')).toBe(0);
  });
});

describe('parseByteSize', () => {
  it('reads k, m and g suffixes and plain bytes', () => {
    expect(parseByteSize('2g')).toBe(2 * 1024 ** 3);
    expect(parseByteSize('512m')).toBe(512 * 1024 ** 2);
    expect(parseByteSize('1.5K')).toBe(1536);
    expect(parseByteSize('100')).toBe(100);
    expect(() => parseByteSize('lots')).toThrow(/512m or 2g/);
  });
});
