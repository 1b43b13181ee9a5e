/**
 * `workbench runs diff` through the built command, on real runs: the same scripted
 * task run on two model profiles that diverge at step 3, and a run against its own
 * exported (and re-imported) history.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';

const root = fileURLToPath(new URL('../..', import.meta.url));

function workbench(args: string[], home: string) {
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: home, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** Four turns; the third names the model in its reply and its tool argument. */
const SCENARIO = {
  scenarios: [
    {
      name: 'diverge',
      turns: [
        {
          content: 'I will draft an outline first.',
          toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'outline' } }],
        },
        {
          content: 'Now the body of the answer.',
          toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'body' } }],
        },
        {
          content: 'Checking the answer with {{model}}.',
          toolCalls: [
            { name: 'create_chat_completion', arguments: { response: 'checked by {{model}}' } },
          ],
        },
        {
          content: 'Done.',
          toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
        },
      ],
    },
  ],
};

function profile(dir: string, model: string): string {
  const file = join(dir, `${model}.toml`);
  writeFileSync(
    file,
    [
      '[llm]',
      `model = "${model}"`,
      'api_type = "scripted"',
      `scenario = "${join(dir, 'scenario.json')}"`,
      'api_key = "sk-never-recorded-0123456789"',
      '',
    ].join('\n'),
    // a key in a file others can read is warned about on stderr (issue 12)
    { mode: 0o600 },
  );
  return file;
}

async function run(home: string, config: string): Promise<string> {
  const result = await workbench(
    ['run', '--agent', 'toolcall', '--config', config, '--jsonl', 'Answer in four steps'],
    home,
  );
  expect(result.code, result.stderr).toBe(0);
  const started = JSON.parse(result.stdout.split('\n')[0]!) as RunEvent;
  return started.runId;
}

describe('workbench runs diff', () => {
  it('finds the divergence at step 3 between two profiles, exits 1; a run and its re-import exit 0', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-diff-cli-'));
    // a scenario file must lie inside WORKBENCH_HOME (issue 12)
    const dir = mkdtempSync(join(home, 'profiles-'));
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify(SCENARIO));
    const a = await run(home, profile(dir, 'model-a'));
    const b = await run(home, profile(dir, 'model-b'));

    // the resolved settings are recorded on run.started, without the key
    const log = readFileSync(join(home, 'runs', `${a}.jsonl`), 'utf8');
    const started = JSON.parse(log.split('\n')[0]!) as RunEvent;
    expect(started).toMatchObject({
      type: 'run.started',
      settings: { 'llm.model': 'model-a', 'llm.client': 'scripted', 'agent.max_steps': 30 },
    });
    expect(log).not.toContain('sk-never-recorded');

    const text = await workbench(['runs', 'diff', a, b], home);
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toContain('the first divergence is at step 3');
    expect(text.stdout).toMatch(/^ {2}llm\.model\s+model-a\s+→\s+model-b$/m);
    expect(text.stdout).toContain('~ step 3');
    expect(text.stdout).toContain('Checking the answer with model-[-a-]{+b+}.');
    expect(text.stdout).toContain('checked by model-[-a-]{+b+}');
    expect(text.stdout).not.toMatch(/^ {2}model\s/m);
    expect(text.stdout).not.toMatch(/^~ step [124]/m);

    const json = await workbench(['runs', 'diff', a, b, '--json'], home);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as {
      isEquivalent: boolean;
      firstDifference: { stepA: number; stepB: number };
      rows: { fields: string[] }[];
    };
    expect(parsed.isEquivalent).toBe(false);
    expect(parsed.firstDifference).toMatchObject({ stepA: 3, stepB: 3 });
    expect(parsed.rows[0]!.fields).toEqual(['reply', 'call 1 args', 'call 1 output']);

    // a run against its own export, and against its re-import in another home
    const file = join(dir, 'a.jsonl');
    expect((await workbench(['runs', 'export', a, '-o', file], home)).code).toBe(0);
    const self = await workbench(['runs', 'diff', a, file], home);
    expect(self.code, self.stdout).toBe(0);
    expect(self.stdout).toContain('The runs are equivalent');
    const otherHome = mkdtempSync(join(tmpdir(), 'wb-diff-cli-'));
    expect((await workbench(['runs', 'import', file], otherHome)).code).toBe(0);
    expect((await workbench(['runs', 'diff', a, file], otherHome)).code).toBe(0);

    // three runs: the table, each against the first
    const table = await workbench(['runs', 'diff', a, file, b], home);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/equivalent/);
    expect(table.stdout).toMatch(/differs at step 3/);

    // operands are resolved as `runs show` resolves them: a unique prefix, `last`
    let n = 1;
    while (a.slice(0, n) === b.slice(0, n)) n++;
    const byRef = await workbench(['runs', 'diff', a.slice(0, n), 'last'], home);
    expect(byRef.code, byRef.stderr).toBe(1);
    expect(byRef.stdout).toBe(text.stdout);
    if (n > 1) {
      const ambiguous = await workbench(['runs', 'diff', a.slice(0, n - 1), b], home);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toMatch(/matches 2 runs/);
    }

    const unknown = await workbench(['runs', 'diff', a, 'no-such-run'], home);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run with id no-such-run, and no such file');
    expect((await workbench(['runs', 'diff', a], home)).code).toBe(2);
    const notARun = join(dir, 'notes.jsonl');
    writeFileSync(notARun, '{"hello": "world"}\n');
    const refused = await workbench(['runs', 'diff', a, notARun], home);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not a run');
  });
});
