/**
 * The built `workbench` command as a user runs it: a real process, real stdout/stderr
 * and exit codes (DESIGN section 3).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { looksLikeRunEvent, type RunEvent } from '@shared/events';

const root = fileURLToPath(new URL('../..', import.meta.url));

function workbench(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'wb-cli-'));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
      env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_DEMO_DELAY_MS: '5', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('workbench CLI', () => {
  it('prints the usage for --help', async () => {
    const { code, stdout } = await workbench(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: workbench <command>');
    expect(stdout).toContain('serve [--host 127.0.0.1] [--port N]');
  });

  it('run --jsonl prints only RunEvents on stdout, seq gapless from 1, and exits 0', async () => {
    // toolcall: the demo of an agent without sandbox tools (Manus's demo needs an image
    // this machine may not have, and now ends as error without one: run-outcome.md)
    const { code, stdout } = await workbench([
      'run',
      '--jsonl',
      '--agent',
      'toolcall',
      'say hello',
    ]);
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events.every(looksLikeRunEvent)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
  });

  it('exits 3 when the step limit is reached', async () => {
    const { code, stderr, stdout } = await workbench(['run', '--max-steps', '1', 'never done']);
    expect(code).toBe(3);
    expect(stderr).toContain('■ max steps reached after 1 steps');
    // stdout is the answer of a finished run: a run cut off by its step budget has none
    // (its last words, "Terminated: Reached max steps", are the verdict on stderr)
    expect(stdout).toBe('');
  });

  it('-h / --help after every command and subcommand: that usage on stdout, exit 0', async () => {
    const cases: [string[], string][] = [
      [['run', '--help'], 'Usage: workbench run [options]'],
      [['run', '--agent', 'swe', '-h'], 'Usage: workbench run [options]'],
      [['run', '--bogus', '--help'], 'Usage: workbench run [options]'],
      [['serve', '--help'], 'Usage: workbench serve [options]'],
      [['batch', '-h'], 'Usage: workbench batch [options]'],
      [['batch', 'show', '--help'], 'Usage: workbench batch [options]'],
      [['runs', '--help'], 'Usage: workbench runs <subcommand>'],
      [['runs', 'list', '--help'], 'Usage: workbench runs list [options]'],
      [['runs', 'show', '-h'], 'Usage: workbench runs show [options]'],
      [['runs', 'export', '--help'], 'Usage: workbench runs export [options]'],
      [['runs', 'import', '--help'], 'Usage: workbench runs import [options]'],
      [['runs', 'rename', '--help'], 'Usage: workbench runs rename [options]'],
      [['runs', 'delete', '--help'], 'Usage: workbench runs delete [options]'],
      [['runs', 'diff', '--help'], 'Usage: workbench runs diff [options]'],
      [['runs', 'fork', '-h'], 'Usage: workbench runs fork [options]'],
      [['runs', 'resume', '--help'], 'Usage: workbench runs resume [options]'],
      [['runs', 'continue', '-h'], 'Usage: workbench runs continue [options]'],
      [
        ['runs', 'continue', 'last', 'a message', '--help'],
        'Usage: workbench runs continue [options]',
      ],
      [['config', '--help'], 'Usage: workbench config <subcommand>'],
      [['config', 'show', '--help'], 'Usage: workbench config show [options]'],
      [['config', 'import-openmanus', '-h'], 'Usage: workbench config import-openmanus [options]'],
      [['config', 'test', '--help'], 'Usage: workbench config test [options]'],
      [['help', 'runs', 'diff'], 'Usage: workbench runs diff [options]'],
    ];
    for (const [args, usage] of cases) {
      const { code, stdout, stderr } = await workbench(args);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout.startsWith(`${usage}\n`), `${args.join(' ')}: ${stdout}`).toBe(true);
      expect(stdout, args.join(' ')).toContain('-h, --help');
      expect(stderr, args.join(' ')).toBe('');
    }
    // the subcommand's help is its own, not the whole list
    const diff = await workbench(['runs', 'diff', '--help']);
    expect(diff.stdout).toContain('runs diff A B');
    expect(diff.stdout).not.toContain('runs fork');
    const more = await workbench(['runs', 'continue', '--help']);
    expect(more.stdout).toContain('runs continue RUN MESSAGE [--max-steps N]');
    expect(more.stdout).toContain('3 max steps reached');
    // after --, "--help" is the task
    const task = await workbench(['run', '--agent', 'toolcall', '--', '--help']);
    expect(task.code, task.stderr).toBe(0);
    expect(task.stderr).toContain('task: --help');
  }, 120_000); // twenty-odd CLI processes one after another

  it('takes -p TEXT and -c FILE as OpenManus users type them; names the help for others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-cli-short-'));
    const config = join(dir, 'config.toml');
    writeFileSync(config, '[agent.toolcall]\nmax_steps = 4\n');
    const ran = await workbench(['run', '--agent', 'toolcall', '-c', config, '-p', 'say hi']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/toolcall on .* \(max 4 steps\)\n {2}task: say hi\n/);
    expect(ran.stdout).toMatch(/^This is the built-in demo model/);

    const missing = await workbench(['run', '-c', join(dir, 'nope.toml'), '-p', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/config file not found: .*nope\.toml/);

    const unknown = await workbench(['run', '-i', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'workbench: unknown option -i for workbench run (see: workbench run --help; a task that starts with "-" goes after --)',
    );
  });

  it('run --profile NAME runs on that profile; an unknown one is refused naming the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-cli-profile-'));
    const config = join(dir, 'config.toml');
    writeFileSync(config, '[llm.fast]\nmodel = "fast-model"\n');
    const ran = await workbench([
      'run',
      '--agent',
      'toolcall',
      '-c',
      config,
      '--profile',
      'fast',
      '--jsonl',
      'hi',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    const started = JSON.parse(ran.stdout.split('\n')[0]!) as RunEvent;
    expect(started).toMatchObject({ type: 'run.started' });
    expect((started as { settings?: Record<string, unknown> }).settings?.['llm.profile']).toBe(
      'fast',
    );

    const unknown = await workbench(['run', '-c', config, '--profile', 'slow', 'hi']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'workbench: --profile slow: no [llm.slow] in the config (default, fast)',
    );
  });

  it('exits 2 with a one-line reason for bad usage', async () => {
    for (const args of [
      ['run'],
      ['run', '--agent', 'nope', 'x'],
      ['run', '--max-steps', 'zero', 'x'],
      ['frobnicate'],
    ]) {
      const { code, stderr } = await workbench(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
