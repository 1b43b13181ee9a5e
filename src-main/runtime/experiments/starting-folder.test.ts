/**
 * "Add to dataset" copies a run's starting folder: `workbench dataset add` copied any
 * folder a history named (an imported run naming `/` or the home folder too); the app's
 * path had the gate. Both now ask admitStartingFolder first.
 */
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { sandboxSchema } from '../config/schema';
import { DatasetAddError } from './dataset-add';
import { admitStartingFolder } from './starting-folder';

const settings = sandboxSchema.parse({});

function startedIn(runId: string, path?: string): RunEvent[] {
  return [
    {
      v: 1,
      runId,
      seq: 1,
      ts: 1,
      type: 'run.started',
      agent: 'toolcall',
      task: 't',
      maxSteps: 5,
      model: 'm',
      sessionId: 's',
      ...(path ? { workspace: { path, mode: 'copy' as const } } : {}),
    },
  ];
}

describe('admitStartingFolder', () => {
  it('lets a project folder through, and refuses /, the app folder and an imported run’s folder', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'wb-start-folder-')));
    const home = join(root, 'home');
    const project = join(root, 'project');
    mkdirSync(join(home, 'workspaces'), { recursive: true });
    mkdirSync(project);
    const gate = { home, settings };
    await admitStartingFolder({ runId: 'r1', events: startedIn('r1', project) }, gate);
    await admitStartingFolder({ runId: 'r0', events: startedIn('r0') }, gate);
    await expect(
      admitStartingFolder({ runId: 'r2', events: startedIn('r2', '/') }, gate),
    ).rejects.toThrow(DatasetAddError);
    await expect(
      admitStartingFolder({ runId: 'r3', events: startedIn('r3', home) }, gate),
    ).rejects.toThrow(/r3 started in .* not copied into a dataset/);
    await expect(
      admitStartingFolder(
        { runId: 'r4', events: startedIn('r4', project), isImported: true },
        gate,
      ),
    ).rejects.toThrow(/r4 was imported/);
  });
});
