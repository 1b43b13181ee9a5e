/**
 * Workspace snapshots on the real engine: the first is full, the next hold only what
 * changed (also a change that kept its old mtime), the listing knows deleted files, the
 * processes left running are reported (not the sandbox's own), and a chain restores the
 * exact files into another container.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxManager } from '../sandbox/sandbox-manager';
import { probeDocker } from '../sandbox/testing/docker-env';
import { localSettings, tempSession } from '../sandbox/testing/sandbox-fixture';
import { parseTar } from '../sandbox/tar-archive';
import { restoreWorkspace } from './workspace-restore';
import { takeHostSnapshot } from './host-snapshot';
import { listBackgroundProcesses, takeSnapshot, type SnapshotTarget } from './workspace-snapshot';

const docker = await probeDocker();
const RUN = '20260101T000000-snaptest';

describe.skipIf(!docker.available)('workspace snapshots', () => {
  const manager = new SandboxManager();
  afterAll(async () => {
    await manager.dispose();
  });

  it('are incremental, see deletions and background processes, and restore exactly', async () => {
    const settings = localSettings();
    const session = tempSession();
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const sh = async (command: string) => {
      const r = await shell.run(command, { timeoutMs: 30_000 });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    const target: SnapshotTarget = {
      engine: manager.engine,
      containerId: sandbox.id,
      user: sandbox.user,
      workDir: sandbox.workDir,
    };
    const dir = mkdtempSync(join(tmpdir(), 'wb-snap-'));
    const names = async (file: string) =>
      (await parseTar(readFileSync(file))).filter((e) => e.type === 'file').map((e) => e.path);

    await sh('cd /workspace && printf a > a && printf b > b && mkdir -p sub/empty');
    const first = await takeSnapshot(target, join(dir, '1.tar'), { runId: RUN });
    expect(first.isFull).toBe(true);
    expect((await names(join(dir, '1.tar'))).sort()).toEqual(['a', 'b']);
    expect(first.processes).toEqual([]);

    // b changes but keeps its old mtime; a is deleted; c is new; a process stays behind.
    await sh('cd /workspace && t=$(stat -c %Y b) && printf B > b && touch -d @$t b');
    await sh('cd /workspace && rm a && printf c > sub/c && (sleep 300 &)');
    const second = await takeSnapshot(target, join(dir, '2.tar'), { runId: RUN });
    expect(second.isFull).toBe(false);
    expect((await names(join(dir, '2.tar'))).sort()).toEqual(['b', 'sub/c']);
    expect(second.manifest.map((e) => e.path).sort()).toEqual(['b', 'sub', 'sub/c', 'sub/empty']);
    expect(second.processes).toEqual(['sleep 300']);

    // Another session's container gets exactly the files of the second snapshot.
    const other = tempSession();
    const restored = await manager.acquire(other, settings);
    await restoreWorkspace(
      { ...target, containerId: restored.id, user: restored.user },
      [join(dir, '1.tar'), join(dir, '2.tar')],
      second.manifest,
    );
    expect(readdirSync(other.workspaceDir).sort()).toEqual(['b', 'sub']);
    expect(readFileSync(join(other.workspaceDir, 'b'), 'utf8')).toBe('B');
    expect(readdirSync(join(other.workspaceDir, 'sub')).sort()).toEqual(['c', 'empty']);
    await other.close();
    await session.close();
  }, 120_000);

  it('taken on the host (local engine, bind mount): the same archives and listing', async () => {
    const settings = localSettings();
    const session = tempSession();
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const sh = async (command: string) => {
      const r = await shell.run(command, { timeoutMs: 30_000 });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    const target: SnapshotTarget = {
      engine: manager.engine,
      containerId: sandbox.id,
      user: sandbox.user,
      workDir: sandbox.workDir,
    };
    const dir = mkdtempSync(join(tmpdir(), 'wb-hostsnap-'));
    const names = async (file: string) =>
      (await parseTar(readFileSync(file))).filter((e) => e.type === 'file').map((e) => e.path);
    await sh('cd /workspace && printf a > a && printf b > b && mkdir -p sub/empty && ln -s b link');
    const first = await takeHostSnapshot(session.workspaceDir, join(dir, '1.tar'), undefined);
    expect(first.isFull).toBe(true);
    expect((await names(join(dir, '1.tar'))).sort()).toEqual(['a', 'b']);
    expect(await listBackgroundProcesses(target)).toEqual([]);

    await new Promise((r) => setTimeout(r, 50));
    await sh('cd /workspace && t=$(stat -c %Y b) && printf B > b && touch -d @$t b');
    await sh('cd /workspace && rm a && printf c > sub/c && (sleep 300 &)');
    const second = await takeHostSnapshot(session.workspaceDir, join(dir, '2.tar'), first.mark);
    expect(second.isFull).toBe(false);
    expect((await names(join(dir, '2.tar'))).sort()).toEqual(['b', 'sub/c']);
    expect(second.manifest.map((e) => e.path).sort()).toEqual([
      'b',
      'link',
      'sub',
      'sub/c',
      'sub/empty',
    ]);
    expect(await listBackgroundProcesses(target)).toEqual(['sleep 300']);

    const other = tempSession();
    const restored = await manager.acquire(other, settings);
    await restoreWorkspace(
      { ...target, containerId: restored.id, user: restored.user },
      [join(dir, '1.tar'), join(dir, '2.tar')],
      second.manifest,
    );
    expect(readdirSync(other.workspaceDir).sort()).toEqual(['b', 'link', 'sub']);
    expect(readFileSync(join(other.workspaceDir, 'link'), 'utf8')).toBe('B');
    expect(readdirSync(join(other.workspaceDir, 'sub')).sort()).toEqual(['c', 'empty']);
    await other.close();
    await session.close();
  }, 120_000);
});
