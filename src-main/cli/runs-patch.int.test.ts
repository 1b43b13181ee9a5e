/**
 * `runs patch` on a real run (issue 32 "Done when"), against the real Docker engine and a
 * scripted model: a Manus run adds text, binary and executable files in step 1, then
 * changes a text file (str_replace_editor), rewrites the binary, deletes one file and adds
 * another. The patch from the start applies with `git apply` to an empty folder, and the
 * patch from step 1 to a fork's restored step-1 files; both give the run's final
 * workspace byte for byte. The fork's files at its first step equal its parent's at the
 * fork step.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../runtime/llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../runtime/llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';
import { runsPatchCommand } from './commands/runs-patch';
import { RunStore } from '../runtime/runs/run-store';

const docker = await probeDocker();
const FORK_MESSAGE = 'Stop here.';

const call = (name: string, args: unknown): ScriptedReply => ({
  content: `calling ${name}`,
  toolCalls: [{ name, args }],
});
const done: ScriptedReply = { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };

function script(request: ChatRequest): ScriptedReply {
  if (request.messages.some((m) => m.content === FORK_MESSAGE)) return done;
  switch (request.messages.filter((m) => m.role === 'tool').length) {
    case 0:
      return call('bash', {
        command:
          'cd /workspace && printf "def add(a, b):\\n    return a - b\\n" > calc.py && ' +
          'head -c 20000 /dev/urandom > data.bin && mkdir -p old && printf gone > old/x.txt && ' +
          'printf "#!/bin/sh\\necho hi\\n" > run.sh && chmod +x run.sh',
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

/** path -> mode and bytes of every file under root (git has no empty folders) */
function files(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const rel = prefix ? `${prefix}/${name}` : name;
      const stat = lstatSync(join(dir, name));
      if (stat.isDirectory()) walk(join(dir, name), rel);
      else
        out[rel] =
          `${stat.mode & 0o111 ? 'x' : '-'} ${readFileSync(join(dir, name)).toString('base64')}`;
    }
  };
  walk(root, '');
  return out;
}

describe.skipIf(!docker.available)('runs patch on a real run', () => {
  let runtime: Runtime | undefined;
  afterAll(async () => {
    await runtime?.dispose();
  });

  it('git apply of the patch gives the final workspace byte for byte', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-patch-'));
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\nmodel = "scripted"\napi_key = "sk-test-patch"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
    );
    runtime = createRuntime({ home, createLlm: () => new ScriptedLlm(script) });
    const run = runtime.runs.start({ task: 'fix calc.py', agent: 'manus' });
    expect((await run.done).outcome).toBe('finished');
    const final = files(join(home, 'workspaces', runtime.sessionId));
    expect(Object.keys(final)).toEqual(['calc.py', 'data.bin', 'notes.md', 'run.sh']);

    // the step diff of the fix
    const fix = runtime.files.changes(run.runId, 2);
    expect(fix.files.map((f) => `${f.change} ${f.path}`)).toEqual(['changed calc.py']);
    expect(fix.files[0]!.hunks![0]!.lines).toEqual(
      expect.arrayContaining(['-    return a - b', '+    return a + b']),
    );

    // from the start: an empty folder
    const empty = mkdtempSync(join(tmpdir(), 'wb-patch-empty-'));
    execFileSync('git', ['apply', '-'], {
      cwd: empty,
      input: runtime.files.patch(run.runId).patch,
    });
    expect(files(empty)).toEqual(final);

    // a fork at step 1 restores the step-1 files; the patch from step 1 takes them to the end
    const fork = await runtime.runs.startFrom({
      kind: 'fork',
      runId: run.runId,
      step: 1,
      message: FORK_MESSAGE,
    });
    expect((await fork.done).outcome).toBe('finished');
    const atStep1 = mkdtempSync(join(tmpdir(), 'wb-patch-step1-'));
    cpSync(join(home, 'workspaces', `fork-${fork.runId}`), atStep1, { recursive: true });
    expect(Object.keys(files(atStep1))).toEqual(['calc.py', 'data.bin', 'old/x.txt', 'run.sh']);
    // the fork's files where it started are its parent's at the fork step
    const forkStart = runtime.files.tree(fork.runId, 0);
    const parentAt1 = runtime.files.tree(run.runId, 1);
    expect(forkStart.entries.map((e) => [e.path, e.size])).toEqual(
      parentAt1.entries.map((e) => [e.path, e.size]),
    );
    expect(runtime.files.file(fork.runId, 0, 'data.bin', true).data).toBe(
      runtime.files.file(run.runId, 1, 'data.bin', true).data,
    );

    // the CLI: workbench runs patch RUN --from 1 -o FILE
    const patchFile = join(home, 'step1-to-end.patch');
    const previous = process.env['WORKBENCH_HOME'];
    process.env['WORKBENCH_HOME'] = home;
    try {
      const code = runsPatchCommand(
        [run.runId, '--from', '1', '-o', patchFile],
        () => new RunStore(join(home, 'runs')),
      );
      expect(code).toBe(0);
    } finally {
      if (previous === undefined) delete process.env['WORKBENCH_HOME'];
      else process.env['WORKBENCH_HOME'] = previous;
    }
    const patch = readFileSync(patchFile, 'utf8');
    expect(patch).toContain('GIT binary patch');
    expect(patch).toContain('deleted file mode 100644');
    execFileSync('git', ['apply', patchFile], { cwd: atStep1 });
    expect(files(atStep1)).toEqual(final);
  }, 180_000);
});
