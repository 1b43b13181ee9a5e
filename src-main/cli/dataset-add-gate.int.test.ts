/**
 * `workbench dataset add` copies a run's starting folder beside the dataset: it copied
 * whatever folder the run's history named, so a history naming `/` (an imported file, a
 * hand-edited log) made it copy the machine's root. It now passes the workspace gate the
 * app uses (runtime/experiments/starting-folder.ts), exits 2 and copies nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('workbench dataset add: the starting folder passes the workspace gate', () => {
  it('refuses a run whose history names / as its folder, and copies nothing', () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-dataset-gate-'));
    mkdirSync(join(home, 'runs'));
    const runId = '20261202T000000-0000dead';
    const started = {
      v: 1,
      runId,
      seq: 1,
      ts: 1_700_000_000_000,
      type: 'run.started',
      agent: 'toolcall',
      task: 'copy the root',
      maxSteps: 5,
      model: 'm',
      sessionId: 's',
      workspace: { path: '/', mode: 'copy' },
    };
    writeFileSync(join(home, 'runs', `${runId}.jsonl`), `${JSON.stringify(started)}\n`);
    const dataset = join(home, 'sets', 'd.jsonl');
    const ran = spawnSync(
      process.execPath,
      [join(root, 'bin/workbench.js'), 'dataset', 'add', dataset, runId],
      { env: { ...process.env, WORKBENCH_HOME: home }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(ran.status, ran.stderr).toBe(2);
    expect(ran.stderr).toMatch(new RegExp(`${runId} started in /, which is not copied`));
    expect(existsSync(join(home, 'sets', 'workspaces'))).toBe(false);
    expect(existsSync(dataset) ? readFileSync(dataset, 'utf8') : '').toBe('');
  });
});
