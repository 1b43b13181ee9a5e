/**
 * Issue 24 item 1 against the real engine: a process in the sandbox keeps turning the
 * workspace's small files into symlinks to a host-only file (0600, outside the
 * workspace) and back, and its folders into symlinks to that file's folder and back,
 * while the run's checkpoints are taken on the host (local engine, bind mount). Not one
 * byte of the host file and not one name of its folder may reach an archive or a
 * listing, nor the workspace of a fork restored from the last checkpoint.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { CheckpointStore } from '../runs/checkpoint-store';
import { SandboxManager } from '../sandbox/sandbox-manager';
import { probeDocker } from '../sandbox/testing/docker-env';
import { localSettings, tempSession } from '../sandbox/testing/sandbox-fixture';
import { CheckpointRecorder } from './checkpoint-recorder';
import { countMarker, hostSecret, newMarker } from './testing/host-secret';
import { restoreWorkspace } from './workspace-restore';

const docker = await probeDocker();
const RUN = '20260101T000000-racetest';
const FILES = 400;
const FOLDERS = 40;
const CHECKPOINTS = 200;
/** the workspace's files are the secret's size: a read through a link fits the header */
const SIZE = 64;

/** Each state lasts a whole pass, so a walk sees one and a late read meets the other. */
const FLIPPER = `
import os, sys
ws, secret, secret_dir, files, folders, size = sys.argv[1:]
body = b'w' * int(size)
is_link = True
while True:
    for i in range(int(files)):
        f = '%s/f%d' % (ws, i)
        try:
            if is_link:
                os.symlink(secret, f + '.l')
            else:
                with open(f + '.l', 'wb') as h:
                    h.write(body)
            os.replace(f + '.l', f)
        except OSError:
            pass
    for i in range(int(folders)):
        d = '%s/d%d' % (ws, i)
        try:
            if is_link:
                os.rename(d, d + '.away')
                os.symlink(secret_dir, d)
            else:
                os.unlink(d)
                os.rename(d + '.away', d)
        except OSError:
            pass
    is_link = not is_link
`;

describe.skipIf(!docker.available)('host snapshots against a symlink-swapping sandbox', () => {
  const manager = new SandboxManager();
  afterAll(async () => {
    await manager.dispose();
  });

  it('never put a host-only file or folder listing in a checkpoint or a fork', async () => {
    const marker = newMarker();
    const secret = hostSecret(marker, SIZE);
    const settings = localSettings();
    const session = tempSession();
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const sh = async (command: string) => {
      const r = await shell.run(command, { timeoutMs: 30_000 });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    writeFileSync(join(session.workspaceDir, '.flip.py'), FLIPPER);
    await sh(
      `cd /workspace && for i in $(seq 0 ${FOLDERS - 1}); do mkdir d$i && head -c ${SIZE} /dev/zero > d$i/secret; done`,
    );
    await sh(
      `nohup python3 /workspace/.flip.py /workspace ${secret.file} ${secret.dir} ${FILES} ${FOLDERS} ${SIZE} >/dev/null 2>&1 &`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-race-runs-')));
    const warnings: string[] = [];
    const events: RunEventPayload[] = [];
    const recorder = new CheckpointRecorder({
      store,
      runId: RUN,
      session,
      sandboxes: manager,
      settings,
      limits: { budget: 1 << 30, runLimit: 1 << 30, stepLimit: 1 << 30 },
      warn: (message) => warnings.push(message),
      emit: (event) => events.push(event),
    });
    // each archive is written while the flipping goes on (off the step's path)
    for (let step = 1; step <= CHECKPOINTS; step++) await recorder.atStepBoundary('swe', step);
    await recorder.settled();
    await sh('pkill -f .flip.py || true');

    const leaks = countMarker(store.dirOf(RUN), marker);
    // A fork from the last checkpoint gets none of it either.
    const last = store.list(RUN).at(-1);
    expect(last).toBeDefined();
    const { archives } = store.chain(RUN, last!.step);
    const other = tempSession();
    const forked = await manager.acquire(other, settings);
    await restoreWorkspace(
      {
        engine: manager.engine,
        containerId: forked.id,
        user: forked.user,
        workDir: forked.workDir,
      },
      archives,
      last!.manifest,
    );
    console.log(
      `race: ${store.list(RUN).length} checkpoints, marker found ${leaks} times in them, ` +
        `${countMarker(other.workspaceDir, marker)} times in the fork`,
    );
    expect({ leaks, inFork: countMarker(other.workspaceDir, marker) }).toEqual({
      leaks: 0,
      inFork: 0,
    });
    expect(store.list(RUN)).toHaveLength(CHECKPOINTS);
    // The swapped files were in the checkpoints all along, only never read through a link.
    const taken = store.list(RUN).reduce((sum, m) => sum + m.bytes, 0);
    expect(taken).toBeGreaterThan(CHECKPOINTS * 50 * SIZE);
    expect(warnings).toEqual([]);
    expect(events).toEqual([]);
    await other.close();
    await session.close();
  }, 300_000);
});
