/**
 * `workbench run` as scripts use it (issue 11, items 8 and 9): the answer on stdout so
 * `workbench run TASK > out.txt` keeps it, the task from stdin or `--prompt`, runs found
 * again by a prefix of their id or `last`, and a run that cannot start (the mcp agent
 * without a server) refused with exit 2 and nothing recorded.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DEMO_ANSWER = /^This is the built-in demo model: no API key is set/;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function workbench(
  args: string[],
  home: string,
  options: { stdin?: string; stdoutFile?: string } = {},
): Promise<Ran> {
  const out = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'pipe';
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_DEMO_DELAY_MS: '5' },
    stdio: ['pipe', out, 'pipe'],
  });
  if (typeof out === 'number') closeSync(out);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin?.end(options.stdin ?? '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const newHome = () => mkdtempSync(join(tmpdir(), 'wb-run-output-'));

describe('workbench run output for scripts', () => {
  it('`run TASK > out.txt` leaves the answer in the file and the progress on the terminal', async () => {
    const home = newHome();
    const file = join(home, 'out.txt');
    const ran = await workbench(['run', '--agent', 'toolcall', 'say hello'], home, {
      stdoutFile: file,
    });
    expect(ran.code, ran.stderr).toBe(0);
    const written = readFileSync(file, 'utf8');
    expect(written).toMatch(DEMO_ANSWER);
    expect(written.trim().split('\n')).toHaveLength(1);
    expect(ran.stderr).toMatch(/▶ run .*toolcall/);
    expect(ran.stderr).toMatch(/■ finished after 2 steps/);
  });

  it('reads the task from stdin with "-" and takes --prompt as OpenManus users type it', async () => {
    const home = newHome();
    const piped = await workbench(['run', '--agent', 'toolcall', '-'], home, {
      stdin: 'say hello from a pipe\n',
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(DEMO_ANSWER);
    const prompted = await workbench(['run', '--agent', 'toolcall', '--prompt', 'say hi'], home);
    expect(prompted.code, prompted.stderr).toBe(0);
    const list = await workbench(['runs', 'list', '--json'], home);
    const tasks = (JSON.parse(list.stdout) as { task: string }[]).map((r) => r.task).sort();
    expect(tasks).toEqual(['say hello from a pipe', 'say hi']);

    const empty = await workbench(['run', '-'], home, { stdin: '   \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/task read from stdin is empty/);
  });

  it('`runs show` takes a unique prefix of the id, or `last`', async () => {
    const home = newHome();
    const first = await workbench(['run', '--agent', 'toolcall', '--jsonl', 'first'], home);
    const second = await workbench(['run', '--agent', 'toolcall', '--jsonl', 'second'], home);
    const idOf = (ran: Ran) => (JSON.parse(ran.stdout.split('\n')[0]!) as { runId: string }).runId;
    const [a, b] = [idOf(first), idOf(second)];
    const last = await workbench(['runs', 'show', 'last'], home);
    expect(last.code).toBe(0);
    expect(last.stdout).toContain(`Run ${b}:`);
    // the shortest prefix that tells them apart
    let n = 1;
    while (a.slice(0, n) === b.slice(0, n)) n++;
    const byPrefix = await workbench(['runs', 'show', a.slice(0, n)], home);
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(byPrefix.stdout).toContain(`Run ${a}:`);
    expect(byPrefix.stdout).toContain('finished');
    if (n > 1) {
      const ambiguous = await workbench(['runs', 'show', a.slice(0, n - 1)], home);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toMatch(/matches 2 runs/);
    }
  });

  it('refuses the mcp agent without an MCP server: exit 2, the fix, nothing recorded', async () => {
    const home = newHome();
    // a real model (a key is set; the demo model has a server of its own: demo-agents.int.test.ts)
    writeFileSync(join(home, 'config.toml'), '[llm]\napi_key = "sk-run-output-test"\n');
    const ran = await workbench(['run', '--agent', 'mcp', 'use the tools'], home);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/the run cannot start: The mcp agent needs an MCP server/);
    expect(ran.stderr).toMatch(/Settings → MCP servers/);
    const list = await workbench(['runs', 'list', '--json'], home);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('`config show` says plainly that runs without an API key use the demo model', async () => {
    const home = newHome();
    const shown = await workbench(['config', 'show', '--agent', 'manus'], home);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/api_key: not set/);
    expect(shown.stdout).toMatch(
      /runs use: the built-in demo model \(no API key set\) \(set api_key to use a real model\)/,
    );
  });
});
