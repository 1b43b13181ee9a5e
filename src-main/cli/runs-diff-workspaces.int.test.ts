/**
 * The "Workspaces" section of `workbench runs diff` on real runs (issue 32 item 5),
 * against the real Docker engine and a scripted model: a Manus run writes files in step
 * 1, fixes calc.py in step 2 and rewrites a binary, deletes a folder and adds notes.md
 * in step 3; a fork at step 1 rewrites calc.py another way (the same size) and adds
 * fork.txt. The report names the files that differ at the end (text and --json), and
 * the first aligned pair of steps where the workspaces part.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../runtime/llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../runtime/llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { RunStore } from '../runtime/runs/run-store';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';
import { runsDiffCommand } from './commands/runs-diff';

const docker = await probeDocker();
const FORK_MESSAGE = 'Fix it the other way.';

const call = (name: string, args: unknown): ScriptedReply => ({
  content: `calling ${name}`,
  toolCalls: [{ name, args }],
});
const done: ScriptedReply = { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };

function script(request: ChatRequest): ScriptedReply {
  const forkAt = request.messages.findIndex((m) => m.content === FORK_MESSAGE);
  if (forkAt >= 0) {
    const after = request.messages.slice(forkAt).filter((m) => m.role === 'tool').length;
    return after === 0
      ? call('bash', {
          command:
            'cd /workspace && printf "def add(a, b):\\n    return b + a\\n" > calc.py && printf "fork\\n" > fork.txt',
        })
      : done;
  }
  switch (request.messages.filter((m) => m.role === 'tool').length) {
    case 0:
      return call('bash', {
        command:
          'cd /workspace && printf "def add(a, b):\\n    return a - b\\n" > calc.py && ' +
          'head -c 20000 /dev/urandom > data.bin && mkdir -p old && printf gone > old/x.txt',
      });
    case 1:
      return call('str_replace_editor', {
        command: 'str_replace',
        path: '/workspace/calc.py',
        old_str: 'a - b',
        new_str: 'a + b',
      });
    case 2:
      return call('bash', {
        command:
          'cd /workspace && head -c 5000 /dev/urandom >> data.bin && rm -r old && printf "new\\n" > notes.md',
      });
    default:
      return done;
  }
}

/** Runs the command in this process with WORKBENCH_HOME set; its stdout as text. */
function runsDiff(home: string, args: string[]): { code: number; stdout: string } {
  const previous = process.env['WORKBENCH_HOME'];
  const write = process.stdout.write.bind(process.stdout);
  let stdout = '';
  process.env['WORKBENCH_HOME'] = home;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = runsDiffCommand(args, () => new RunStore(join(home, 'runs')));
    return { code, stdout };
  } finally {
    process.stdout.write = write;
    if (previous === undefined) delete process.env['WORKBENCH_HOME'];
    else process.env['WORKBENCH_HOME'] = previous;
  }
}

describe.skipIf(!docker.available)('runs diff: where two runs workspaces differ', () => {
  let runtime: Runtime | undefined;
  afterAll(async () => {
    await runtime?.dispose();
  });

  it('names the files that differ at the end and the first aligned step they part at', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-diff-ws-'));
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\nmodel = "scripted"\napi_key = "sk-test-diff-ws"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
    );
    runtime = createRuntime({ home, createLlm: () => new ScriptedLlm(script) });
    const run = runtime.runs.start({ task: 'fix calc.py', agent: 'manus' });
    expect((await run.done).outcome).toBe('finished');
    const fork = await runtime.runs.startFrom({
      kind: 'fork',
      runId: run.runId,
      step: 1,
      message: FORK_MESSAGE,
    });
    expect((await fork.done).outcome).toBe('finished');

    const json = runsDiff(home, [run.runId, fork.runId, '--json']);
    expect(json.code).toBe(1);
    const { workspaces } = JSON.parse(json.stdout) as {
      workspaces: {
        end: { files: { path: string; difference: string }[] };
        firstDivergence: { stepA: number; stepB: number; label: string; files: unknown[] };
      };
    };
    expect(workspaces.end.files.map((f) => `${f.difference} ${f.path}`)).toEqual([
      'changed calc.py',
      'changed data.bin',
      'added fork.txt',
      'missing notes.md',
      'added old',
      'added old/x.txt',
    ]);
    // the fork's bash call (its step 2) aligns with the parent's (step 3); the parent's
    // str_replace_editor step has no counterpart, so step 3 → 2 is the first aligned pair
    expect(workspaces.firstDivergence).toMatchObject({ stepA: 3, stepB: 2, label: 'step 3 → 2' });
    expect(workspaces.firstDivergence.files).toEqual([
      expect.objectContaining({ path: 'calc.py', difference: 'changed', sizeA: 32, sizeB: 32 }),
      expect.objectContaining({ path: 'data.bin', difference: 'changed' }),
      expect.objectContaining({ path: 'fork.txt', difference: 'added', sizeB: 5 }),
      expect.objectContaining({ path: 'notes.md', difference: 'missing', sizeA: 4 }),
      expect.objectContaining({ path: 'old', difference: 'added', kind: 'folder' }),
      expect.objectContaining({ path: 'old/x.txt', difference: 'added' }),
    ]);

    const text = runsDiff(home, [run.runId, fork.runId]).stdout;
    const section = text.slice(text.indexOf('\nWorkspaces:'));
    expect(section).toContain('6 files differ at the end');
    expect(section).toContain('~ calc.py  (other content)');
    expect(section).toContain('~ data.bin  (25000 → 20000 bytes)');
    expect(section).toContain('+ fork.txt  (only in B)');
    expect(section).toContain('- notes.md  (missing in B)');
    expect(section).toContain('first diverge at step 3 → 2 (A step 3, B step 2):');

    // a run against itself: the same everywhere
    const same = runsDiff(home, [run.runId, run.runId]).stdout;
    expect(same).toContain('the same at the end');
    expect(same).toContain('the same at every aligned step');
  }, 180_000);
});
