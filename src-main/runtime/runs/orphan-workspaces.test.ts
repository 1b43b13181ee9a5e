/**
 * A workspace made for a run that never wrote its first event (its process killed during
 * a fork's restore or a copy) is removed at the next start; one whose run is in the
 * history, or whose run id a live process holds (it is being made right now), is kept.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimRun } from './run-owner';
import { sweepOrphanWorkspaces } from './orphan-workspaces';

const live = spawn('sleep', ['60']);
afterAll(() => live.kill());

describe('sweepOrphanWorkspaces', () => {
  it('removes the folders of runs that never started, and nothing else', () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-orphans-'));
    const runs = join(home, 'runs');
    const workspaces = join(home, 'workspaces');
    mkdirSync(runs);
    const ids = {
      killed: '20260101T000000-00000001',
      copyKilled: '20260101T000000-00000002',
      recorded: '20260101T000000-00000003',
      otherProcess: '20260101T000000-00000004',
      thisProcess: '20260101T000000-00000005',
    };
    for (const name of [
      `fork-${ids.killed}`,
      `copy-${ids.copyKilled}`,
      `fork-${ids.recorded}`,
      `fork-${ids.otherProcess}`,
      `fork-${ids.thisProcess}`,
      's-app-session',
      'fork-not-a-run-id',
    ]) {
      mkdirSync(join(workspaces, name, 'sub'), { recursive: true });
      writeFileSync(join(workspaces, name, 'sub', 'big.bin'), 'x'.repeat(1024));
    }
    // killed mid-restore: its owner mark names a process that is gone
    writeFileSync(join(runs, `${ids.killed}.owner`), JSON.stringify({ pid: 2 ** 22 + 1 }));
    writeFileSync(join(runs, `${ids.recorded}.jsonl`), '{}\n');
    writeFileSync(join(runs, `${ids.otherProcess}.owner`), JSON.stringify({ pid: live.pid }));
    claimRun(runs, ids.thisProcess);

    const removed = sweepOrphanWorkspaces(workspaces, runs);
    expect(removed.sort()).toEqual([`copy-${ids.copyKilled}`, `fork-${ids.killed}`]);
    expect(readdirSync(workspaces).sort()).toEqual(
      [
        `fork-${ids.otherProcess}`,
        `fork-${ids.recorded}`,
        `fork-${ids.thisProcess}`,
        'fork-not-a-run-id',
        's-app-session',
      ].sort(),
    );
    // the dead process's owner mark goes with its folder
    expect(existsSync(join(runs, `${ids.killed}.owner`))).toBe(false);
    expect(sweepOrphanWorkspaces(join(home, 'no-such-folder'), runs)).toEqual([]);
  });
});
