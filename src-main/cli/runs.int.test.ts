/**
 * Run history through the built `workbench` command, as a user meets it: a replay is
 * the live stream byte for byte, and a run killed with SIGKILL half-way leaves a
 * history that `runs show` reads.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';

const root = fileURLToPath(new URL('../..', import.meta.url));

function start(args: string[], home: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_DEMO_DELAY_MS: '5', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    done,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

async function workbench(args: string[], home: string, env: Record<string, string> = {}) {
  const p = start(args, home, env);
  const { code } = await p.done;
  return { code, stdout: p.stdout, stderr: p.stderr };
}

describe('workbench runs', () => {
  it('runs show --jsonl replays exactly what run --jsonl printed; runs list shows the run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-runs-cli-'));
    const live = await workbench(['run', '--agent', 'toolcall', '--jsonl', 'say hello'], home);
    expect(live.code).toBe(0);
    const first = JSON.parse(live.stdout.split('\n')[0] ?? '') as RunEvent;
    const replay = await workbench(['runs', 'show', first.runId, '--jsonl'], home);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toBe(live.stdout);
    const list = await workbench(['runs', 'list'], home);
    expect(list.stdout).toMatch(new RegExp(`${first.runId}\\s+finished\\s+toolcall`));
    const human = await workbench(['runs', 'show', first.runId], home);
    expect(human.stdout).toContain(`Run ${first.runId}: toolcall`);
    expect(human.stdout).toContain('■ finished after 2 steps');

    // export, then import into another home: the same events
    const exported = await workbench(['runs', 'export', first.runId], home);
    expect(exported.stdout).toBe(live.stdout);
    const file = join(mkdtempSync(join(tmpdir(), 'wb-export-')), 'run.jsonl');
    await workbench(['runs', 'export', first.runId, '-o', file], home);
    const otherHome = mkdtempSync(join(tmpdir(), 'wb-runs-cli-'));
    const imported = await workbench(['runs', 'import', file], otherHome);
    expect(imported.code).toBe(0);
    expect(imported.stdout.trim()).toBe(first.runId);
    expect((await workbench(['runs', 'show', first.runId, '--jsonl'], otherHome)).stdout).toBe(
      live.stdout,
    );
    // the same file again: said, nothing to do (issue 25 item 11: it used to be exit 2)
    const again = await workbench(['runs', 'import', file], otherHome);
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(first.runId);
    expect(again.stderr).toBe(
      `Run ${first.runId} is already in the history with the same events: nothing imported\n`,
    );
  });

  it('runs export → import keeps a renamed title; a changed file under that run id is refused', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-runs-title-'));
    const live = await workbench(['run', '--agent', 'toolcall', '--jsonl', 'say hello'], home);
    const first = JSON.parse(live.stdout.split('\n')[0] ?? '') as RunEvent;
    await workbench(['runs', 'rename', 'last', 'Baseline', 'run'], home);
    const file = join(mkdtempSync(join(tmpdir(), 'wb-export-')), 'run.jsonl');
    expect((await workbench(['runs', 'export', 'last', '-o', file], home)).code).toBe(0);

    const otherHome = mkdtempSync(join(tmpdir(), 'wb-runs-title-'));
    const imported = await workbench(['runs', 'import', file], otherHome);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toBe(`Imported run ${first.runId} "Baseline run" (finished)\n`);
    expect((await workbench(['runs', 'list'], otherHome)).stdout).toMatch(/Baseline run/);
    const shown = await workbench(['runs', 'list', '--json'], otherHome);
    expect(JSON.parse(shown.stdout)).toMatchObject([{ runId: first.runId, title: 'Baseline run' }]);

    // the same run id with other events: refused, exit 2, the run here kept
    const changed = readFileSync(file, 'utf8').replace('"say hello"', '"say goodbye"');
    const changedFile = join(mkdtempSync(join(tmpdir(), 'wb-export-')), 'changed.jsonl');
    writeFileSync(changedFile, changed);
    const refused = await workbench(['runs', 'import', changedFile], otherHome);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `run ${first.runId} ("Baseline run") is already in the history, with other events`,
    );
    expect(refused.stderr).toContain('An import never replaces a run: delete it first');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('runs rename names a run in the list; runs delete removes its files', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-runs-edit-'));
    const live = await workbench(['run', '--agent', 'toolcall', '--jsonl', 'say hello'], home);
    const first = JSON.parse(live.stdout.split('\n')[0] ?? '') as RunEvent;
    const renamed = await workbench(['runs', 'rename', 'last', 'My', 'baseline'], home);
    expect(renamed.code).toBe(0);
    expect((await workbench(['runs', 'list'], home)).stdout).toMatch(/My baseline/);
    const deleted = await workbench(['runs', 'delete', first.runId], home);
    expect(deleted.code).toBe(0);
    expect(readdirSync(join(home, 'runs')).filter((n) => n.startsWith(first.runId))).toEqual([]);
    expect((await workbench(['runs', 'list'], home)).stderr).toMatch(/No runs yet/);
    expect((await workbench(['runs', 'delete', first.runId], home)).code).toBe(2);
  });

  it('a run killed with SIGKILL half-way leaves a history that runs show reads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-runs-kill-'));
    // one model call takes 2 s: the kill lands while the run waits for it
    const run = start(['run', '--agent', 'toolcall', '--jsonl', 'long task'], home, {
      WORKBENCH_DEMO_DELAY_MS: '2000',
    });
    const started = Date.now();
    while (!run.stdout.includes('"type":"llm.requested"')) {
      if (Date.now() - started > 20_000) throw new Error(`no events: ${run.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    run.child.kill('SIGKILL');
    expect(await run.done).toMatchObject({ signal: 'SIGKILL' });
    const seen = run.stdout.trim().split('\n');
    const runId = (JSON.parse(seen[0] ?? '') as RunEvent).runId;
    expect(seen.some((l) => l.includes('run.finished'))).toBe(false);

    const replay = await workbench(['runs', 'show', runId, '--jsonl'], home);
    expect(replay.code).toBe(0);
    expect(replay.stdout.trim().split('\n')).toEqual(seen);

    const list = await workbench(['runs', 'list'], home);
    expect(list.stdout).toMatch(new RegExp(`${runId}\\s+interrupted`));

    // and if the kill had torn the last line, that line is skipped and reported
    appendFileSync(join(home, 'runs', `${runId}.jsonl`), '{"v":1,"runId":"x","seq');
    const torn = await workbench(['runs', 'show', runId, '--jsonl'], home);
    expect(torn.code).toBe(0);
    expect(torn.stdout.trim().split('\n')).toEqual(seen);
    expect(torn.stderr).toMatch(/cut off/);
    expect(readdirSync(join(home, 'runs')).filter((f) => f.endsWith('.owner'))).toEqual([]);
  });

  it('runs list --limit, --agent, --status and --batch pick the runs to list', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-runs-filter-'));
    const done = await workbench(['run', '--agent', 'toolcall', 'say hello'], home);
    expect(done.code, done.stderr).toBe(0);
    const cut = await workbench(['run', '--agent', 'toolcall', '--max-steps', '1', 'cut'], home);
    expect(cut.code, cut.stderr).toBe(3);
    const listed = async (...args: string[]) => {
      const result = await workbench(['runs', 'list', '--json', ...args], home);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { task: string }[]).map((r) => r.task);
    };
    expect(await listed()).toEqual(['cut', 'say hello']);
    expect(await listed('--limit', '1')).toEqual(['cut']);
    expect(await listed('--status', 'max_steps')).toEqual(['cut']);
    expect(await listed('--status', 'finished,cancelled')).toEqual(['say hello']);
    expect(await listed('--agent', 'toolcall', '--status', 'error')).toEqual([]);
    expect(await listed('--batch', 'no-such-batch')).toEqual([]);

    const table = await workbench(['runs', 'list', '--status', 'max_steps'], home);
    expect(table.stdout).toMatch(/max steps reached\s+toolcall/);
    expect(table.stdout).not.toContain('say hello');
    const none = await workbench(['runs', 'list', '--agent', 'swe'], home);
    expect(none.code).toBe(0);
    expect(none.stderr).toBe('No runs match --agent swe (of 2 in the history)\n');
    const bad = await workbench(['runs', 'list', '--status', 'failed'], home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown --status "failed" \(running, paused, finished, /);
  });

  it('says what to do for an unknown run id', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-runs-cli-'));
    const result = await workbench(['runs', 'show', 'nope'], home);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'workbench: no run with id nope (see: workbench runs list, or use "last")',
    );
  });
});
