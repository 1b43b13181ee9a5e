/**
 * `workbench run` with the real sandbox (issue 11): the README's swe example as written
 * (`--workspace DIR`: the agent's edits land in DIR on the host; `--isolated`: in a
 * copy), and `--flow planning` printing one run state and a header per plan step.
 * The built-in demo model answers (no API key), the tools are real.
 */
import { spawn } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docker = await probeDocker();

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-run-ws-'));
  writeFileSync(join(dir, 'config.toml'), `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`);
  return dir;
}

/** A project folder as its user has it (when the tests run as root: a normal user's). */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-project-'));
  if (process.getuid?.() === 0) chownSync(dir, 1000, 1000);
  return dir;
}

function workbench(args: string[], workbenchHome: string) {
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: workbenchHome, WORKBENCH_DEMO_DELAY_MS: '5' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe.skipIf(!docker.available)('workbench run with the sandbox', () => {
  it("the README's swe example: --workspace DIR mounts the folder, and the fix lands in it", async () => {
    const dir = project();
    const ran = await workbench(
      ['run', '--agent', 'swe', '--workspace', dir, 'fix the failing test'],
      home(),
    );
    // the demo's first run of the script fails on purpose (exit 1): finished, with it counted
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/■ finished with 1 tool error after 4 steps/);
    const fixed = readFileSync(join(dir, 'demo', 'greet.py'), 'utf8');
    expect(fixed).toContain('"Hello " + name');
    expect(ran.stdout).toMatch(/Fixed and verified/);
    expect(ran.stderr).toContain(`  workspace: ${dir} (mounted read-write), seen at /workspace\n`);
  }, 120_000);

  it("without --workspace it names the session folder the run's files are left in (issue 25 item 11)", async () => {
    const workbenchHome = home();
    const ran = await workbench(['run', '--agent', 'swe', 'fix the failing test'], workbenchHome);
    expect(ran.code, ran.stderr).toBe(0);
    const line = /^ {2}workspace: (\S+) \(this run's session folder, seen at \/workspace\)$/m.exec(
      ran.stderr,
    );
    expect(line, ran.stderr).not.toBeNull();
    const folder = line![1]!;
    expect(folder.startsWith(join(workbenchHome, 'workspaces', 's-'))).toBe(true);
    // it is where the agent's edits are
    expect(readFileSync(join(folder, 'demo', 'greet.py'), 'utf8')).toContain('"Hello " + name');
    // right under the run's first line, before any step
    const lines = ran.stderr.split('\n');
    expect(lines.findIndex((l) => l.startsWith('  workspace:'))).toBe(
      lines.findIndex((l) => l.startsWith('  task:')) + 1,
    );
  }, 120_000);

  it('--isolated works on a copy: the folder itself is left as it was', async () => {
    const dir = project();
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'keep.txt'), 'mine\n');
    const workbenchHome = home();
    const ran = await workbench(
      ['run', '--agent', 'swe', '--workspace', dir, '--isolated', '--jsonl', 'fix it'],
      workbenchHome,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, 'demo'))).toBe(false);
    const started = JSON.parse(ran.stdout.split('\n')[0]!) as {
      workspace: { path: string; mode: string; copyPath: string };
    };
    expect(started.workspace).toMatchObject({ path: dir, mode: 'copy' });
    expect(started.workspace.copyPath.startsWith(join(workbenchHome, 'workspaces'))).toBe(true);
    expect(readFileSync(join(started.workspace.copyPath, 'src', 'keep.txt'), 'utf8')).toBe(
      'mine\n',
    );
    expect(readFileSync(join(started.workspace.copyPath, 'demo', 'greet.py'), 'utf8')).toContain(
      '"Hello " + name',
    );
  }, 120_000);

  it('--flow planning prints one run state and a header per plan step', async () => {
    const ran = await workbench(['run', '--flow', 'planning', 'show me the flow'], home());
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr.match(/state IDLE → RUNNING/g)).toHaveLength(1);
    expect(ran.stderr.match(/state RUNNING → FINISHED/g)).toHaveLength(1);
    expect(ran.stderr).toContain('☰ plan "Demo: two agents, one sandbox" (2 steps)');
    expect(ran.stderr).toMatch(/▶ plan step 1\/2 \(manus\): \[manus\] Write and run/);
    expect(ran.stderr).toMatch(/✓ plan step 1\/2 \(manus\) completed/);
    expect(ran.stderr).toMatch(/▶ plan step 2\/2 \(swe\): \[swe\] Fix a bug/);
    expect(ran.stdout).toMatch(/^Summary \(scripted demo\)/);
  }, 180_000);
});
