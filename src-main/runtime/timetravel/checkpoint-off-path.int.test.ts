/**
 * Issue 27: a step's checkpoint is taken off the step's path (the boundary captures, the
 * archive is written beside the next step), and still holds exactly that boundary's files.
 * Against the real engine: the boundary returns at once, the next step's tool call (through
 * the sandbox, as every tool's) waits for the capture, and the archive of step 1 is held back until that step has
 * rewritten a file in place, appended to and overwritten part of another, written through
 * a hard link, deleted a file, moved a folder, retargeted a symlink and added files; then
 * the checkpoint, restored into a fresh container (a fork's path) and read back by the
 * Files panel's reader, is byte for byte the workspace as it was at the boundary.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../runs/checkpoint-store';
import { SandboxManager } from '../sandbox/sandbox-manager';
import { probeDocker } from '../sandbox/testing/docker-env';
import { localSettings, tempSession } from '../sandbox/testing/sandbox-fixture';
import type { Session } from '../session/session';
import { CheckpointRecorder } from './checkpoint-recorder';
import { restoreWorkspace } from './workspace-restore';
import { WorkspaceHistory } from './workspace-history';

const docker = await probeDocker();
const RUN = '20260301T000000-offpath1';
const DIE_MID_ARCHIVE = fileURLToPath(new URL('./testing/archive-then-die.ts', import.meta.url));
const BIG = { budget: 1 << 30, runLimit: 1 << 30, stepLimit: 1 << 30 };

/** a file's bytes, compared whole (its size and hash: a failure stays readable) */
function digest(bytes: Buffer): string {
  return `${bytes.length} bytes ${createHash('sha256').update(bytes).digest('hex')}`;
}

/** every entry under `root`: path -> what it is (a file's mode bit and bytes, a link's target) */
function contents(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out.set(rel, `-> ${readlinkSync(full)}`);
      else if (stat.isDirectory()) {
        out.set(rel, 'dir');
        walk(full, rel);
      } else {
        const exec = (stat.mode & 0o100) !== 0 ? 'x' : '-';
        out.set(rel, `${exec} ${digest(readFileSync(full))}`);
      }
    }
  };
  walk(root, '');
  return out;
}

/** The same, as the Files panel reads it from the checkpoints (nothing extracted). */
function contentsAt(store: CheckpointStore, step: number): Map<string, string> {
  const history = new WorkspaceHistory(store);
  const state = history.stateAt(RUN, step);
  const out = new Map<string, string>();
  for (const [path, file] of [...state.entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (file.kind === 'd') out.set(path, 'dir');
    else if (file.kind === 'l') out.set(path, `-> ${history.read(file).toString()}`);
    else {
      const exec = (file.mode & 0o100) !== 0 ? 'x' : '-';
      out.set(path, `${exec} ${digest(history.read(file))}`);
    }
  }
  return out;
}

describe.skipIf(!docker.available)('checkpoints off the step’s path', () => {
  const manager = new SandboxManager();
  const settings = localSettings();
  const sessions: Session[] = [];
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    await manager.dispose();
  });

  async function shellOf(session: Session) {
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const sh = async (command: string) => {
      const r = await shell.run(command, { timeoutMs: 60_000 });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    // a tool's call: through the sandbox, which holds it while a checkpoint captures
    const tool = async (command: string) => {
      const r = await sandbox.runInShell(shell, command, { timeoutMs: 60_000 });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    return { sandbox, sh, tool };
  }

  async function restored(store: CheckpointStore, step: number): Promise<Map<string, string>> {
    const other = tempSession();
    sessions.push(other);
    const sandbox = await manager.acquire(other, settings);
    const { archives, metas } = store.chain(RUN, step);
    await restoreWorkspace(
      {
        engine: manager.engine,
        containerId: sandbox.id,
        user: sandbox.user,
        workDir: sandbox.workDir,
      },
      archives,
      metas.at(-1)!.manifest,
    );
    return contents(other.workspaceDir);
  }

  it('holds exactly the boundary’s files while the next step writes, deletes and moves', async () => {
    const session = tempSession();
    sessions.push(session);
    const { sh, tool } = await shellOf(session);
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-offpath-')));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const archiveWaits: number[] = [];
    const warnings: string[] = [];
    const recorder = new CheckpointRecorder({
      store,
      runId: RUN,
      session,
      sandboxes: manager,
      settings,
      limits: BIG,
      warn: (message) => warnings.push(message),
      emit: () => undefined,
      beforeArchive: async (step) => {
        archiveWaits.push(step);
        if (step === 1) await held;
      },
    });

    // Step 1's files: a large one staged on disk, the others held in memory by the capture.
    await sh(
      [
        'cd /workspace',
        "printf 'the original text\\n' > edit.txt",
        // past what a capture holds in memory (64 MB): staged on disk
        'head -c 73400320 /dev/urandom > big.bin',
        // held in memory until the archive is written
        'head -c 2097152 /dev/urandom > mid.bin',
        'printf keep-me > gone.txt',
        'mkdir -p dir/sub && printf nested > dir/sub/n.txt',
        'ln -s edit.txt link',
        'printf twin > hard-a && ln hard-a hard-b',
        "printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh",
        'mkdir empty',
      ].join(' && '),
    );
    const atBoundary = contents(session.workspaceDir);
    await recorder.atStepBoundary('swe', 1);
    // The boundary returned with the archive not written: nothing claims to be step 1 yet.
    expect(store.list(RUN)).toEqual([]);

    // The next step, at once: its tool call waits for the capture (if still running), then
    // writes while step 1's archive is still to be written.
    await tool(
      [
        'cd /workspace',
        "printf 'rewritten in place\\n' > edit.txt", // O_TRUNC: the same inode
        'printf appended >> big.bin',
        'printf YYYYYYYY | dd of=mid.bin bs=1 seek=4096 conv=notrunc 2>/dev/null',
        'printf XXXXXXXX | dd of=big.bin bs=1 seek=1000 conv=notrunc 2>/dev/null',
        'printf through-the-other-name >> hard-b',
        'rm gone.txt',
        'mv dir moved',
        'ln -sfn run.sh link',
        'chmod 644 run.sh',
        'printf new > new.txt',
        'rmdir empty',
      ].join(' && '),
    );
    const afterNextStep = contents(session.workspaceDir);
    expect(afterNextStep).not.toEqual(atBoundary);
    expect(archiveWaits).toEqual([1]); // captured, its archive still held back
    expect(store.list(RUN)).toEqual([]);

    release();
    await recorder.settled();
    expect(warnings).toEqual([]);
    expect(store.list(RUN).map((m) => m.step)).toEqual([1]);
    expect(readdirSync(store.dirOf(RUN)).filter((n) => n.includes('partial'))).toEqual([]);

    // A fork's restore and the Files panel's reader: the boundary, byte for byte.
    expect(await restored(store, 1)).toEqual(atBoundary);
    expect(contentsAt(store, 1)).toEqual(atBoundary);

    // The chain goes on: step 2's delta holds what the next step did.
    await recorder.atStepBoundary('swe', 2);
    await recorder.settled();
    expect(store.list(RUN).map((m) => m.step)).toEqual([1, 2]);
    expect(await restored(store, 2)).toEqual(afterNextStep);
    expect(contentsAt(store, 2)).toEqual(afterNextStep);
  });

  it('leaves no complete-looking checkpoint when the process dies mid-archive', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'wb-offpath-crash-ws-'));
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-offpath-crash-')));
    execFileSync('sh', ['-c', `head -c 67108864 /dev/urandom > ${folder}/big.bin`]);
    // a child process captures, starts writing the archive, and is killed (SIGKILL) once
    // the partial archive has bytes but before it is complete
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', DIE_MID_ARCHIVE, folder, store.dir, RUN],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const outcome = child.stdout;
    const died = /at (\d+) of (\d+) bytes/.exec(outcome);
    expect(Number(died?.[1])).toBeLessThan(Number(died?.[2]));
    expect(outcome.trim()).toMatch(/^killed mid-archive at \d+ of \d+ bytes$/);
    expect(store.list(RUN)).toEqual([]);
    const left = readdirSync(store.dirOf(RUN));
    expect(left.some((n) => /^step-1\.tar\.\d+\.partial$/.test(n))).toBe(true);
    expect(left.some((n) => /^step-1\.stage\.\d+\.partial$/.test(n))).toBe(true);
    // the next start's sweep removes both (their process is gone)
    store.sweep();
    expect(readdirSync(store.dirOf(RUN))).toEqual([]);
  });
});
