/**
 * The files of a run at every step, read back from real checkpoints (the host snapshot
 * the recorder takes, of a real folder): the tree with what each step changed, a file at
 * a step, a step's diff, and `runs patch`'s patch, which `git apply` must turn a copy of
 * the starting files into the final ones byte for byte (added, changed, deleted, binary,
 * executable, symlinked, hard-linked files).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CheckpointedFolder } from './testing/checkpointed-folder';
import { WorkspaceFiles } from './workspace-files';
import { WorkspaceHistory } from './workspace-history';

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000030806000000', 'hex'),
  randomBytes(40),
]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** every file under `root`: path -> bytes (a symlink: `-> target`), mode bits */
function contents(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === '.git') continue;
      const full = join(dir, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out.set(rel, `-> ${readlinkSync(full)}`);
      else if (stat.isDirectory()) walk(full, rel);
      else {
        const exec = (stat.mode & 0o100) !== 0 ? 'x' : '-';
        out.set(rel, `${exec} ${readFileSync(full).toString('base64')}`);
      }
    }
  };
  walk(root, '');
  return out;
}

describe('WorkspaceFiles', () => {
  const folder = mkdtempSync(join(tmpdir(), 'wb-files-ws-'));
  const atStep1 = mkdtempSync(join(tmpdir(), 'wb-files-step1-'));
  const run = new CheckpointedFolder(folder);
  const files = new WorkspaceFiles(new WorkspaceHistory(run.store));
  const binary1 = randomBytes(3000);
  const binary2 = Buffer.concat([binary1.subarray(0, 1000), randomBytes(5000)]);

  beforeAll(async () => {
    writeFileSync(
      join(folder, 'main.py'),
      'def add(a, b):\n    return a - b\n\nprint(add(1, 2))\n',
    );
    writeFileSync(join(folder, 'data.bin'), binary1);
    mkdirSync(join(folder, 'sub'));
    writeFileSync(join(folder, 'sub', 'old.txt'), 'to be deleted\n');
    writeFileSync(join(folder, 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(folder, 'run.sh'), 0o755);
    symlinkSync('main.py', join(folder, 'link'));
    writeFileSync(join(folder, 'twin-a.txt'), 'same inode\n');
    linkSync(join(folder, 'twin-a.txt'), join(folder, 'twin-b.txt'));
    writeFileSync(join(folder, 'no-eol.txt'), 'last line without newline');
    await run.checkpoint(1);
    cpSync(folder, atStep1, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    await sleep(30);
    writeFileSync(
      join(folder, 'main.py'),
      'def add(a, b):\n    return a + b\n\nprint(add(1, 2))\n',
    );
    writeFileSync(join(folder, 'data.bin'), binary2);
    rmSync(join(folder, 'sub', 'old.txt'));
    writeFileSync(join(folder, 'image.png'), PNG);
    writeFileSync(join(folder, 'name with space.txt'), 'spaced\n');
    writeFileSync(join(folder, 'no-eol.txt'), 'last line without newline, changed');
    await run.checkpoint(2);
    await sleep(30);
    // touched again with the same bytes: not a change of step 3
    writeFileSync(join(folder, 'main.py'), readFileSync(join(folder, 'main.py')));
    mkdirSync(join(folder, 'deep', 'er'), { recursive: true });
    writeFileSync(join(folder, 'deep', 'er', 'x.txt'), 'x\n');
    rmSync(join(folder, 'run.sh'));
    await run.checkpoint(3);
  });

  it('lists the tree at a step with sizes and what the step changed', () => {
    const one = files.tree(run.runId, 1);
    expect(one.asOf).toBe(1);
    expect(one.checkpoints).toEqual([1, 2, 3]);
    const byPath = new Map(one.entries.map((e) => [e.path, e]));
    expect(byPath.get('main.py')).toMatchObject({ kind: 'file', size: 50, change: 'added' });
    expect(byPath.get('sub')).toMatchObject({ kind: 'folder' });
    expect(byPath.get('link')).toMatchObject({ kind: 'symlink', size: 7 });
    expect(byPath.get('twin-b.txt')).toMatchObject({ kind: 'file', size: 11 });

    const two = files.tree(run.runId, 2);
    const changed = two.entries.filter((e) => e.change).map((e) => `${e.change} ${e.path}`);
    expect(changed.sort()).toEqual([
      'added image.png',
      'added name with space.txt',
      'changed data.bin',
      'changed main.py',
      'changed no-eol.txt',
    ]);
    expect(two.deleted).toEqual(['sub/old.txt']);
    expect(two.entries.find((e) => e.path === 'data.bin')?.size).toBe(binary2.length);

    const three = files.tree(run.runId, 3);
    expect(three.entries.filter((e) => e.change).map((e) => e.path)).toEqual([
      'deep',
      'deep/er',
      'deep/er/x.txt',
    ]);
    expect(three.deleted).toEqual(['run.sh']);
    // a step after the last checkpoint: the last checkpoint's files, said so
    expect(files.tree(run.runId, 9)).toMatchObject({ asOf: 3, deleted: [] });
    expect(files.tree(run.runId, 9).note).toMatch(/no checkpoint/);
  });

  it('reads a file as it was at a step: text, image, binary', () => {
    expect(files.file(run.runId, 1, 'main.py')).toMatchObject({
      kind: 'text',
      text: 'def add(a, b):\n    return a - b\n\nprint(add(1, 2))\n',
    });
    expect(files.file(run.runId, 3, 'main.py').text).toContain('a + b');
    const image = files.file(run.runId, 2, 'image.png');
    expect(image).toMatchObject({ kind: 'image', mimeType: 'image/png' });
    expect(Buffer.from(image.data!, 'base64').equals(PNG)).toBe(true);
    const binary = files.file(run.runId, 1, 'data.bin');
    expect(binary).toMatchObject({ kind: 'binary', size: 3000 });
    expect(binary.data).toBeUndefined();
    const download = files.file(run.runId, 1, 'data.bin', true);
    expect(Buffer.from(download.data!, 'base64').equals(binary1)).toBe(true);
    expect(files.file(run.runId, 1, 'twin-b.txt').text).toBe('same inode\n');
    expect(() => files.file(run.runId, 2, 'sub/old.txt')).toThrow(/no file/);
    expect(() => files.file(run.runId, 1, '../../etc/passwd')).toThrow(/no file/);
  });

  it("a step's diff: added, changed, deleted, with line hunks for text", () => {
    const step2 = files.changes(run.runId, 2);
    expect(step2.from).toBe(1);
    const main = step2.files.find((f) => f.path === 'main.py')!;
    expect(main).toMatchObject({ change: 'changed', isBinary: false, added: 1, removed: 1 });
    expect(main.hunks![0]!.lines).toContain('-    return a - b');
    expect(main.hunks![0]!.lines).toContain('+    return a + b');
    expect(step2.files.find((f) => f.path === 'data.bin')).toMatchObject({
      change: 'changed',
      isBinary: true,
      sizeBefore: 3000,
      sizeAfter: 6000,
    });
    expect(step2.files.find((f) => f.path === 'sub/old.txt')).toMatchObject({
      change: 'deleted',
      removed: 1,
    });
    // step 3 touched main.py without changing it
    expect(files.changes(run.runId, 3).files.map((f) => f.path)).not.toContain('main.py');
    // the run's whole change, from where it started (an empty folder)
    const total = files.changes(run.runId, 3, 0);
    expect(total.files.every((f) => f.change === 'added')).toBe(true);
  });

  it('runs patch: git apply turns the starting files into the final ones byte for byte', () => {
    const patch = files.patch(run.runId, 1, 3);
    expect(patch.patch).toContain('GIT binary patch');
    expect(patch.patch).toContain('deleted file mode 100755');
    const copy = mkdtempSync(join(tmpdir(), 'wb-files-apply-'));
    cpSync(atStep1, copy, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(copy, '..', `${run.runId}.patch`), patch.patch);
    execFileSync('git', ['apply', '--binary', join(copy, '..', `${run.runId}.patch`)], {
      cwd: copy,
    });
    const want = contents(folder);
    // git has no empty folders: compare files and links
    expect(contents(copy)).toEqual(want);

    // from the very start (nothing) into an empty folder
    const empty = mkdtempSync(join(tmpdir(), 'wb-files-apply0-'));
    const whole = files.patch(run.runId);
    expect(whole.from).toBe(0);
    execFileSync('git', ['apply', '-'], { cwd: empty, input: whole.patch });
    expect(contents(empty)).toEqual(want);
  });
});
