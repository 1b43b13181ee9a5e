/**
 * What `workbench run` (without --jsonl) prints when a run does not finish (issue 25
 * item 7 and 8): stdout is the answer, so it stays empty for a stopped or failed run (a
 * partial reply is not an answer, and the verdict is on stderr once); the run's last
 * state line names the outcome the verdict line gives. The built CLI against the scripted
 * OpenAI-compatible server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioFile, scenarioScript } from '../runtime/llm/testing/scenario-script';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';

const root = fileURLToPath(new URL('../..', import.meta.url));

const scenarios = parseScenarioFile(
  JSON.stringify({
    scenarios: [
      {
        name: 'halfway',
        match: 'stop me halfway',
        turns: [
          {
            content: 'Here is the first half of the answer.',
            toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'half' } }],
          },
          { content: 'thinking about the second half', delayMs: 60_000 },
        ],
      },
    ],
  }),
);

let server: ScriptedOpenAiServer;
let dir: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer(scenarioScript(scenarios));
  await server.start();
  dir = mkdtempSync(join(tmpdir(), 'wb-run-end-'));
});

afterAll(async () => {
  await server.close();
});

function configFile(name: string, baseUrl: string): string {
  const file = join(dir, `${name}.toml`);
  writeFileSync(
    file,
    ['[llm]', 'model = "gpt-end"', `base_url = "${baseUrl}"`, 'api_key = "sk-end-0123456789"'].join(
      '\n',
    ) + '\nmax_retries = 0\n',
    { mode: 0o600 },
  );
  return file;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI without --jsonl; `onStderr` sees stderr as it grows, with a way to signal. */
function workbench(
  args: string[],
  onStderr?: (text: string, signal: (name: NodeJS.Signals) => void) => void,
): Promise<Ran> {
  const home = mkdtempSync(join(tmpdir(), 'wb-run-end-home-'));
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: home },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    onStderr?.(stderr, (name) => child.kill(name));
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('workbench run, when the run does not finish', () => {
  it('Ctrl-C: nothing on stdout (no partial reply), and the state line names the outcome', async () => {
    let signalled = false;
    const ran = await workbench(
      [
        'run',
        '--agent',
        'toolcall',
        '--config',
        configFile('scripted', server.baseUrl),
        'stop me halfway',
      ],
      (stderr, signal) => {
        if (!signalled && stderr.includes('— step 2/')) {
          signalled = true;
          signal('SIGINT');
        }
      },
    );
    expect(ran.code, ran.stderr).toBe(130);
    // the model had replied in step 1: that reply is not the answer of a stopped run
    expect(ran.stderr).toContain('assistant: Here is the first half of the answer.');
    expect(ran.stdout).toBe('');
    const states = ran.stderr.split('\n').filter((l) => l.includes('state '));
    expect(states.at(-1)).toBe('  state RUNNING → FINISHED (outcome: cancelled)');
    expect(ran.stderr).toMatch(/\n■ cancelled after 2 steps/);
  });

  it('a refused connection: the error is printed once, on stderr', async () => {
    const port = await closedPort();
    const ran = await workbench([
      'run',
      '--agent',
      'toolcall',
      '--config',
      configFile('refused', `http://127.0.0.1:${port}/v1`),
      'say hello',
    ]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('');
    const said = (ran.stdout + ran.stderr).split('Nothing is listening at').length - 1;
    expect(said, ran.stderr).toBe(1);
    expect(ran.stderr).toContain('  state RUNNING → ERROR (outcome: error)');
    expect(ran.stderr).toMatch(/■ error after 1 steps .*connection refused/);
  });
});
