/**
 * The live view of a running run's workspace over the real WebSocket transport (issue 32):
 * `runs:files-live` lists the session's folder as the agent leaves it mid-step, marked
 * against the run's last checkpoint, and `runs:file-live` reads a file of it now. A symlink
 * the sandbox planted to a host file is listed as a link and never followed or read; a
 * workspace in a remote engine's container is answered as unavailable, not read here.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../runtime/runs/checkpoint-store';
import { SANDBOX_RESOURCE } from '../runtime/sandbox/sandbox-manager';
import { CheckpointedFolder } from '../runtime/timetravel/testing/checkpointed-folder';
import { LiveWorkspace } from '../runtime/timetravel/workspace-live';
import { collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

/** A run that waits for the human (mid-step: running, no checkpoint of its step yet). */
async function waitingRun() {
  const served = await serve();
  const { api, runtime } = served;
  const events = collect(api);
  const { runId } = await api.startRun({ task: 'ask: Which file?', agent: 'toolcall' });
  const asked = await until(() =>
    events.find((e) => e.runId === runId && e.type === 'human.requested'),
  );
  if (asked.type !== 'human.requested') throw new Error('unreachable');
  // the run's session, as the real run factory opens it for its sandbox
  const sessionId = runtime.runs.get(runId)?.sessionId;
  expect(sessionId).toBe(runtime.sessionId);
  const folder = runtime.services.sessions.open(sessionId!).workspaceDir;
  const answer = async () => {
    await api.answerHuman({ runId, toolCallId: asked.toolCallId, answer: 'x' });
    await until(() => finishedOf(events, runId));
  };
  return { ...served, events, runId, folder, answer };
}

const byPath = (entries: { path: string }[]) => new Map(entries.map((e) => [e.path, e]));

describe("contract over WebSocket: a running run's workspace, live", () => {
  it('lists a file written mid-step and reads its content now; a finished run has no live view', async () => {
    const { api, runId, folder, answer } = await waitingRun();
    writeFileSync(join(folder, 'fix.py'), 'x = 1 + 1\n');
    mkdirSync(join(folder, 'src'));
    writeFileSync(join(folder, 'src', 'main.py'), 'print("hi")\n');

    const first = await api.getLiveFiles({ runId });
    expect(first.unavailable).toBeUndefined();
    expect(first.listedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(first.entries.map((e) => `${e.kind} ${e.path} ${e.size}`)).toEqual([
      'file fix.py 10',
      'folder src 0',
      'file src/main.py 12',
    ]);
    expect(await api.getLiveFile({ runId, path: 'fix.py' })).toMatchObject({
      kind: 'text',
      size: 10,
      text: 'x = 1 + 1\n',
    });

    // the agent writes on: the next listing and read show it
    writeFileSync(join(folder, 'fix.py'), 'x = 1 + 1  # fixed\n');
    writeFileSync(join(folder, 'log.bin'), Buffer.from([0, 1, 2]));
    const second = await api.getLiveFiles({ runId });
    expect(byPath(second.entries).get('fix.py')).toMatchObject({ size: 19 });
    expect(byPath(second.entries).get('log.bin')).toMatchObject({ kind: 'file', size: 3 });
    expect(await api.getLiveFile({ runId, path: 'fix.py' })).toMatchObject({
      text: 'x = 1 + 1  # fixed\n',
    });
    expect(await api.getLiveFile({ runId, path: 'log.bin' })).toMatchObject({ kind: 'binary' });
    expect((await api.getLiveFile({ runId, path: 'log.bin', download: true })).data).toBe(
      Buffer.from([0, 1, 2]).toString('base64'),
    );
    await expect(api.getLiveFile({ runId, path: 'gone.py' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(api.getLiveFile({ runId, path: '../x' })).rejects.toMatchObject({
      code: 'invalid_input',
    });

    await answer();
    const after = await api.getLiveFiles({ runId });
    expect(after.entries).toEqual([]);
    expect(after.unavailable).toMatch(/not running/);
    await expect(api.getLiveFiles({ runId: '20991231T000000-00000000' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('marks what changed since the last checkpoint: added, changed (same size too), deleted', async () => {
    const { api, runId, folder, home, answer } = await waitingRun();
    writeFileSync(join(folder, 'same.py'), 'a = 1\n');
    writeFileSync(join(folder, 'edit.py'), 'b = 1\n');
    writeFileSync(join(folder, 'grow.py'), 'c\n');
    writeFileSync(join(folder, 'old.py'), 'gone\n');
    const run = new CheckpointedFolder(folder, runId, new CheckpointStore(join(home, 'runs')));
    await run.checkpoint(1);
    writeFileSync(join(folder, 'edit.py'), 'b = 2\n'); // same size, other bytes
    writeFileSync(join(folder, 'grow.py'), 'c = 3\n');
    writeFileSync(join(folder, 'new.py'), 'n\n');
    unlinkSync(join(folder, 'old.py'));

    const view = await api.getLiveFiles({ runId });
    expect(view.since).toBe(1);
    expect(view.entries.map((e) => `${e.path} ${e.change ?? '-'}`)).toEqual([
      'edit.py changed',
      'grow.py changed',
      'new.py added',
      'same.py -',
    ]);
    expect(view.deleted).toEqual(['old.py']);
    await answer();
  });

  it('lists a symlink to a host file or folder as a link: never followed, never read', async () => {
    const { api, runId, folder, answer } = await waitingRun();
    const outside = mkdtempSync(join(tmpdir(), 'wb-live-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'host secret\n');
    symlinkSync(join(outside, 'secret.txt'), join(folder, 'escape'));
    symlinkSync(outside, join(folder, 'dirlink'));

    const view = await api.getLiveFiles({ runId });
    expect(view.entries).toEqual([
      expect.objectContaining({
        path: 'dirlink',
        kind: 'symlink',
        size: Buffer.byteLength(outside),
      }),
      expect.objectContaining({
        path: 'escape',
        kind: 'symlink',
        size: Buffer.byteLength(join(outside, 'secret.txt')),
      }),
    ]);
    const link = await api.getLiveFile({ runId, path: 'escape' });
    expect(link).toMatchObject({ kind: 'text', linkTarget: join(outside, 'secret.txt') });
    expect(JSON.stringify(link)).not.toContain('host secret');
    expect(
      JSON.stringify(await api.getLiveFile({ runId, path: 'escape', download: true })),
    ).not.toContain(Buffer.from('host secret\n').toString('base64'));
    await expect(api.getLiveFile({ runId, path: 'dirlink/secret.txt' })).rejects.toMatchObject({
      code: 'not_found',
    });
    rmSync(outside, { recursive: true, force: true });
    await answer();
  });

  it('says plainly that a workspace in a remote engine container has no live view', async () => {
    const { runtime, runId, folder, answer } = await waitingRun();
    writeFileSync(join(folder, 'seed.py'), 'only the seed\n');
    const session = runtime.services.sessions.get(runtime.sessionId)!;
    // the session's sandbox is up (on the engine below)
    await session.use(SANDBOX_RESOURCE, async () => ({ dispose: async () => undefined }));
    const remote = new LiveWorkspace({
      runs: runtime.runs,
      sessions: runtime.services.sessions,
      // an engine on another machine (the Docker API's own answer says so)
      engine: {
        ping: async () => ({
          version: '27',
          apiVersion: '1.47',
          endpoint: 'tcp://build-box:2376',
          isLocal: false,
        }),
      },
      history: runtime.files.history,
    });
    const view = await remote.tree(runId);
    expect(view.entries).toEqual([]);
    expect(view.unavailable).toMatch(/another machine/);
    await expect(remote.file(runId, 'seed.py')).rejects.toMatchObject({ code: 'unavailable' });
    await answer();
  });
});
