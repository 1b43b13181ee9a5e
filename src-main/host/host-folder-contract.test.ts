/**
 * The UI's entry points for host folders, over the real WebSocket contract (issue 24
 * item 2): `run:start` (the new-run form, and "Run again", which sends the run's own
 * folder), `batch:start` (task lines with folders), `runs:resume` and `runs:fork` of a
 * run whose history names a folder. Each hostile folder is refused as a typed error the
 * UI shows in place, and nothing is recorded. The runtime's own gate behind them is in
 * runtime/launch/host-folder-entry-points.test.ts.
 */
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEventPayload } from '@shared/events';
import { serve } from './testing/ws-contract-fixture';

function hostile(home: string): string[] {
  const root = realpathSync(join(home, '..'));
  const link = join(home, '..', `etc-link-${Math.random().toString(16).slice(2)}`);
  symlinkSync('/etc', link);
  return ['/', '/etc', '/proc/self', home, join(home, 'workspaces'), root, link, 'relative'];
}

/** A run exported elsewhere whose history names `/` as its mounted folder, cut after step 1. */
function hostileExport(runId: string): string {
  const stamper = createEventStamper(runId);
  const payloads: RunEventPayload[] = [
    {
      type: 'run.started',
      agent: 'toolcall',
      task: 'steps: 1',
      maxSteps: 5,
      model: 'm',
      sessionId: 's-elsewhere',
      workspace: { path: '/', mode: 'mount' },
    },
    { type: 'step.started', agent: 'toolcall', step: 1, maxSteps: 5 },
    { type: 'step.finished', agent: 'toolcall', step: 1, durationMs: 1 },
  ];
  return `${payloads.map((p) => JSON.stringify(stamper.stamp(p))).join('\n')}\n`;
}

describe('contract: every entry point for a host folder refuses hostile ones', () => {
  it('run:start (the new-run form) refuses them with the pre-flight reason', async () => {
    const { api, home } = await serve();
    for (const path of hostile(home)) {
      for (const mode of ['mount', 'copy'] as const) {
        await expect(
          api.startRun({ task: 'steps: 1', agent: 'toolcall', workspace: { path, mode } }),
          `${mode} ${path}`,
          // a relative path does not even pass the request's schema
        ).rejects.toMatchObject({ code: path === 'relative' ? 'invalid_input' : 'conflict' });
      }
    }
    expect(await api.listRuns({})).toEqual([]);
  });

  it('batch:start refuses a task whose folder is hostile', async () => {
    const { api, home } = await serve();
    for (const path of hostile(home)) {
      await expect(
        api.startBatch({
          agent: 'toolcall',
          tasks: [{ task: 'steps: 1', workspace: path }],
          profiles: [],
          repeat: 1,
          concurrency: 1,
        }),
        path,
      ).rejects.toMatchObject({ code: 'invalid_input' });
    }
    expect(await api.listBatches({})).toEqual([]);
  });

  it('an imported run: Run again with its folder, resume and fork with files are refused', async () => {
    const { api } = await serve();
    const runId = '20260101T000000-abcdef01';
    const imported = await api.importRun({ content: hostileExport(runId), fileName: 'cut.jsonl' });
    expect(imported.summary).toMatchObject({ runId, isImported: true, isInterrupted: true });
    // "Run again" as an older UI sent it: the run's own folder
    await expect(
      api.startRun({
        task: 'steps: 1',
        agent: 'toolcall',
        workspace: { path: '/', mode: 'mount' },
        rerunOf: runId,
      }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/was imported/) });
    await expect(api.resumeInterruptedRun({ runId })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/was imported.*cannot be resumed here/),
    });
    await expect(api.forkRun({ runId, step: 1 })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/imported run carries no snapshots/),
    });
    expect((await api.listRuns({})).map((s) => s.runId)).toEqual([runId]);
  });

  it('runs:fork refuses a profile that does not exist and a step limit at or below the step', async () => {
    const { api, home } = await serve('[llm]\nmodel = "m"\n');
    mkdirSync(join(home, 'workspaces'), { recursive: true });
    const runId = '20260101T000000-abcdef02';
    // imported, so its files cannot be restored: forks say so only after the arguments
    await api.importRun({ content: hostileExport(runId) });
    for (const agentModel of ['../../x', 'nope']) {
      await expect(
        api.forkRun({ runId, step: 1, agentModel, withoutFiles: true }),
      ).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(agentModel),
      });
    }
    await expect(
      api.forkRun({ runId, step: 1, maxSteps: 1, withoutFiles: true }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/max-steps/) });
    expect(await api.listRuns({})).toHaveLength(1);
  });
});
