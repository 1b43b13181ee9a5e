/**
 * The debugger in the CLI, as a user runs it: the built `workbench` in a real process,
 * the scripted model server, real sandbox tools (Docker). In a real terminal (a pty from
 * util-linux `script`), `--break tool:bash --break stuck` pauses the run and reads
 * approve / edit / skip from the keyboard; the history records each edit. Without a
 * terminal (`--jsonl`, or stdin not a TTY) a breakpoint is refused with exit 2 and a
 * reason, before any run starts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { parseScenarioFile, scenarioScript } from '../runtime/llm/testing/scenario-script';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docker = await probeDocker();
/** Ctrl-U: clears the pre-filled prompt line */
const CLEAR_LINE = '\u0015';

const scenarios = parseScenarioFile(
  JSON.stringify({
    scenarios: [
      {
        name: 'shell',
        match: 'use the shell',
        turns: [
          {
            content: 'First command.',
            toolCalls: [{ name: 'bash', arguments: { command: 'echo original' } }],
          },
          {
            content: 'Second command.',
            toolCalls: [{ name: 'bash', arguments: { command: 'echo second' } }],
          },
          {
            content: 'Done.',
            toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
          },
        ],
      },
      {
        name: 'slow',
        match: 'think slowly',
        turns: [
          {
            content: 'Thinking.',
            delayMs: 2500,
            toolCalls: [{ name: 'bash', arguments: { command: 'echo slow' } }],
          },
          { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
        ],
      },
      {
        name: 'chat',
        match: 'say hello',
        turns: [{ toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] }],
      },
    ],
  }),
);

let server: ScriptedOpenAiServer;
let dir: string;
let configFile: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer(scenarioScript(scenarios));
  const baseUrl = await server.start();
  dir = mkdtempSync(join(tmpdir(), 'wb-debug-cli-'));
  configFile = join(dir, 'config.toml');
  writeFileSync(
    configFile,
    [
      '[llm]',
      'model = "gpt-cli"',
      `base_url = "${baseUrl}"`,
      'api_key = "sk-cli-debug-0000"',
      'max_retries = 0',
      '',
      '[sandbox]',
      `image = "${LOCAL_SANDBOX_IMAGE}"`,
      '',
    ].join('\n'),
    // a key in a file others can read is warned about on stderr (issue 12)
    { mode: 0o600 },
  );
});

afterAll(async () => {
  await server.close();
});

const bin = join(root, 'bin/workbench.js');

/** Runs the CLI without a terminal: stdin a pipe, stdout and stderr captured. */
function plain(args: string[], home = mkdtempSync(join(tmpdir(), 'wb-home-'))) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, WORKBENCH_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the CLI in a real pseudo-terminal (util-linux `script`): stdin and stderr are TTYs.
 * `script` runs the command through `$SHELL -c`; `exec` makes the CLI replace that shell.
 * Without it a shell that does not exec its last command (dash, CI's /bin/sh when SHELL is
 * unset) stays in the terminal's foreground group, dies of the Ctrl-\ meant for the CLI
 * (SIGQUIT), and `script` hangs up the terminal under the run.
 */
function inTerminal(home: string, args: string[]) {
  const command = ['exec', process.execPath, bin, ...args].join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    // the shell CI has when SHELL is unset: the test holds with the least helpful one
    env: { ...process.env, SHELL: '/bin/sh', WORKBENCH_HOME: home, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const waiters: { text: string; count: number; resolve: () => void }[] = [];
  const occurrences = (text: string) => screen.split(text).length - 1;
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    for (const w of waiters.splice(0)) {
      if (occurrences(w.text) >= w.count) w.resolve();
      else waiters.push(w);
    }
  });
  const seen = (text: string, count = 1) =>
    new Promise<void>((resolve, reject) => {
      if (occurrences(text) >= count) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`never saw ${count}× "${text}":\n${screen}`)),
        60_000,
      );
      waiters.push({ text, count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  return {
    seen,
    type: (text: string) => child.stdin.write(text),
    exited: new Promise<number | null>((resolve) => child.on('close', resolve)),
    screen: () => screen,
  };
}

describe('workbench run --break without a terminal', () => {
  it('is refused with exit 2 and a reason under --jsonl, and when stdin is not a TTY', async () => {
    const jsonl = await plain([
      'run',
      '--jsonl',
      '--break',
      'tool:bash',
      '--config',
      configFile,
      'say hello',
    ]);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stdout).toBe('');
    expect(jsonl.stderr).toBe(
      'workbench: --break pauses the run for you to answer, but with --jsonl stdout is the event stream and nobody answers at the terminal; run it in an interactive terminal without --jsonl, or use the UI (workbench serve)\n',
    );
    const piped = await plain(['run', '--approve', 'bash', '--config', configFile, 'say hello']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(
      '--approve pauses the run for you to answer, but stdin or stderr is not a terminal',
    );
    const bad = await plain(['run', '--break', 'loop', '--config', configFile, 'say hello']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--break: Breakpoint "loop": unknown kind "loop"');
  });

  it('refuses breakpoints saved in config.toml too, unless --no-breakpoints', async () => {
    const saved = join(dir, 'saved.toml');
    writeFileSync(
      saved,
      `${await import('node:fs').then((fs) => fs.readFileSync(configFile, 'utf8'))}\n[agent.toolcall]\nbreakpoints = ["stuck"]\n`,
      { mode: 0o600 },
    );
    const refused = await plain([
      'run',
      '--jsonl',
      '--agent',
      'toolcall',
      '--config',
      saved,
      'say hello',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'config.toml sets [agent.toolcall] breakpoints, which pause the run for you to answer',
    );
    expect(refused.stderr).toContain('pass --no-breakpoints to run without them');
    const ignored = await plain([
      'run',
      '--jsonl',
      '--no-breakpoints',
      '--agent',
      'toolcall',
      '--config',
      saved,
      'say hello',
    ]);
    expect(ignored.code, ignored.stderr).toBe(0);
    const events = ignored.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    expect(events.some((e) => e.type === 'breakpoints.changed' || e.type === 'run.paused')).toBe(
      false,
    );
  });
});

describe.skipIf(!docker.available)('workbench run --break in a terminal', () => {
  it('pauses at bash, and the keyboard edits one call and skips the next; the history keeps both', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-home-'));
    const { seen, type, exited, screen } = inTerminal(home, [
      'run',
      '--break',
      'tool:bash',
      '--break',
      'stuck',
      '--config',
      configFile,
      "'use the shell'",
    ]);

    await seen('debug> ');
    expect(screen()).toContain(
      '⏸ paused at step 1 (manus, before tools): breakpoint bp-1 (tool:bash): manus is about to run bash',
    );
    expect(screen()).toContain('[1] bash {"command":"echo original"}');
    type('e 1\r');
    await seen('arguments of bash> ');
    type(`${CLEAR_LINE}{"command":"echo edited"}\r`);
    await seen('debug> ', 2);
    type('c\r');
    await seen('[1] bash {"command":"echo second"}');
    await seen('debug> ', 3);
    type('s 1\r');
    await seen('what the model is told> ');
    type(`${CLEAR_LINE}Skipped: not today.\r`);
    await seen('debug> ', 4);
    type('c\r');
    expect(await exited, screen()).toBe(0);
    expect(screen()).toContain('✎ terminal edited the arguments of bash');
    expect(screen()).toContain('✎ terminal skipped bash');

    // The history: the edit and the skip where they happened, and what the tools did.
    const shown = await plain(['runs', 'list'], home);
    const runId = /\b(\d{8}T\d{6}-[0-9a-f]{8})\b/.exec(shown.stdout)?.[1];
    expect(runId, shown.stdout + shown.stderr).toBeDefined();
    const replay = await plain(['runs', 'show', runId!, '--jsonl'], home);
    const events = replay.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent);
    expect(
      events
        .filter((e) => e.type === 'run.edited')
        .map((e) => e.type === 'run.edited' && [e.by, e.edit.kind]),
    ).toEqual([
      ['terminal', 'edit_call'],
      ['terminal', 'skip_call'],
    ]);
    const outputs = events.flatMap((e) =>
      e.type === 'tool.finished' ? [[e.name, e.ok, e.output.trim()]] : [],
    );
    expect(outputs).toEqual([
      ['bash', true, 'edited'],
      ['bash', false, ''],
      ['terminate', true, expect.any(String)],
    ]);
    const tool = events.find(
      (e) =>
        e.type === 'memory.appended' &&
        e.message.role === 'tool' &&
        e.message.content === 'Skipped: not today.',
    );
    expect(tool).toBeDefined();
  }, 120_000);

  it('--approve: approving the only waiting call goes on, without c (issue 25 item 5)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-home-'));
    const { seen, type, exited, screen } = inTerminal(home, [
      'run',
      '--approve',
      'bash',
      '--config',
      configFile,
      "'use the shell'",
    ]);
    await seen('[1] bash {"command":"echo original"}   (needs approval)');
    type('a 1\r');
    await seen('approved; nothing left to decide, the run goes on');
    await seen('[1] bash {"command":"echo second"}   (needs approval)');
    type('s 1\r');
    await seen('what the model is told> ');
    type(`${CLEAR_LINE}Not this one.\r`);
    await seen('skipped; nothing left to decide, the run goes on');
    expect(await exited, screen()).toBe(0);
    expect(screen()).toContain('✓ bash (exit 0): original');
  }, 120_000);

  it('Ctrl-\\ pauses a running run at the next safe point; c goes on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-home-'));
    const { seen, type, exited, screen } = inTerminal(home, [
      'run',
      '--config',
      configFile,
      "'think slowly'",
    ]);
    await seen('step 1/20');
    type('\u001c'); // Ctrl-\ while the model thinks
    await seen('workbench: pausing at the next safe point');
    await seen('debug> ');
    expect(screen()).toContain('⏸ paused at step 1 (manus, before tools): paused by the user');
    type('c\r');
    expect(await exited, screen()).toBe(0);
    expect(screen()).toContain('✓ bash (exit 0): slow');
  }, 120_000);
});
