/**
 * The sandbox tools on a real container, called as the agent loop calls them: bash's
 * persistent shell, python_execute, and str_replace_editor with its path guard (S13),
 * plus recovery when the container is killed from outside between calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { SandboxManager } from '../../sandbox/sandbox-manager';
import { probeDocker } from '../../sandbox/testing/docker-env';
import {
  containersOf,
  docker,
  localSettings,
  tempSession,
} from '../../sandbox/testing/sandbox-fixture';
import type { Session } from '../../session/session';
import { createBashTool } from './bash';
import { createPythonExecuteTool } from './python-execute';
import { createStrReplaceEditorTool } from './str-replace-editor';
import type { Tool, ToolContext, ToolResult } from '../tool';
import { SandboxAccess } from './sandbox-access';
import { CancelledError } from '../../util/abort';
import { capObservation } from '../../loop/observation';

const engine = await probeDocker();

describe.skipIf(!engine.available)('sandbox tools', () => {
  const manager = new SandboxManager();
  const events: RunEventPayload[] = [];
  let session: Session;
  let access: SandboxAccess;
  let bash: ReturnType<typeof createBashTool>;
  let python: ReturnType<typeof createPythonExecuteTool>;
  let editor: ReturnType<typeof createStrReplaceEditorTool>;

  const context = (signal = new AbortController().signal): ToolContext => ({
    signal,
    runId: 'run-1',
    agent: 'swe',
    step: 1,
    toolCallId: 'call-1',
    emit: (e) => events.push(e),
  });
  // Arguments go through the tool's schema, as the loop does before `execute`.
  const call = async <A>(tool: Tool<A>, args: unknown): Promise<ToolResult> =>
    tool.execute(tool.schema.parse(args), context());

  beforeAll(async () => {
    session = tempSession();
    access = new SandboxAccess({
      manager,
      session,
      settings: localSettings({ memory_limit: '128m', timeout: 30 }),
      emit: (e) => events.push(e),
    });
    bash = createBashTool(access);
    python = createPythonExecuteTool(access);
    editor = createStrReplaceEditorTool(access);
  });

  afterAll(async () => {
    await bash.dispose?.();
    access.dispose();
    await session.close();
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  describe('bash', () => {
    it('keeps cwd and environment between calls and reports exit codes and stderr', async () => {
      await call(bash, { command: 'mkdir -p /workspace/proj && cd /workspace/proj && export X=1' });
      const r = await call(bash, {
        command: 'pwd; echo "X=$X"; echo 5; echo warn >&2; exit_code() { return 4; }; exit_code',
      });
      expect(r.error).toBeUndefined();
      expect(r.exitCode).toBe(4);
      expect(r.output).toBe('/workspace/proj\nX=1\n5\n[stderr]\nwarn\n\n(exit code 4)');
    });

    it('stops a command at its timeout, says so, and the shell keeps its state', async () => {
      const started = performance.now();
      const r = await call(bash, { command: 'echo begin; sleep 100', timeout: 1 });
      expect(performance.now() - started).toBeLessThan(6_000);
      expect(r.error).toMatch(/timed out after 1s and was stopped/);
      expect(r.output).toMatch(/^begin\n/);
      const next = await call(bash, { command: 'echo "$X"; pwd' });
      expect(next.output).toBe('1\n/workspace/proj\n');
    });

    it("keeps bash's notice of a killed job with the killed command, never in the next one", async () => {
      for (let round = 0; round < 15; round++) {
        const killed = await call(bash, { command: 'sleep 100', timeout: 1 });
        expect(killed.error).toMatch(/timed out/);
        const next = await call(bash, { command: `echo round-${round}` });
        expect(next.output).toBe(`round-${round}\n`);
      }
    });

    it('stops the command when the run is cancelled, and the shell keeps its state', async () => {
      const controller = new AbortController();
      const pending = bash.execute(
        bash.schema.parse({ command: 'sleep 200' }),
        context(controller.signal),
      );
      setTimeout(() => controller.abort(), 300);
      await expect(pending).rejects.toBeInstanceOf(CancelledError);
      const ps = await call(bash, { command: 'ps -eo args | grep -c "^sleep 200" ; echo "$X"' });
      expect(ps.output).toBe('0\n1\n');
    });

    it('gives one busy and one idle event per call, however many engine calls it makes', async () => {
      const start = events.length;
      await call(editor, { command: 'create', path: '/workspace/events.txt', file_text: 'a\n' });
      const statuses = events
        .slice(start)
        .filter((e) => e.type === 'sandbox.changed')
        .map((e) => e.status);
      expect(statuses).toEqual(['busy', 'idle']);
    });

    it("500,000 printed characters: max_observe's marker counts what the capture cap cut too (issue 17)", async () => {
      const printed = 500_000;
      const result = await call(bash, {
        command: `python3 -c "import sys; sys.stdout.write('Z' * ${printed})"`,
      });
      expect(result.earlierCuts).toHaveLength(1);
      const observation = capObservation(result.output, 10_000, result.earlierCuts);
      const match = /\[\.\.\. (\d+) characters cut: observation capped/.exec(observation);
      const kept = observation.replace(/\n\n\[\.\.\. \d+ characters cut[^\]]*\]\n\n/, '');
      expect(kept).not.toContain('bytes of output omitted'); // the capture's marker was cut away
      const keptPrinted = kept.split('').filter((c) => c === 'Z').length;
      // Before: ~55,600, only the observation cap's share of ~490,000.
      expect(Number(match?.[1])).toBe(printed - keptPrinted);
    });

    it('restarts on request, resetting variables', async () => {
      expect((await call(bash, { restart: true })).output).toBe('The shell was restarted.');
      expect((await call(bash, { command: 'echo "[$X]"; pwd' })).output).toBe('[]\n/workspace\n');
      expect((await call(bash, {})).error).toMatch(/`command` is required/);
    });

    it('starts a new shell after the old one died, keeping the working directory', async () => {
      await call(bash, { command: 'cd /workspace/proj' });
      const died = await call(bash, { command: 'kill -9 $$' });
      expect(died.output).toMatch(/next command starts a new shell/);
      const r = await call(bash, { command: 'pwd' });
      expect(r.output).toMatch(/^Note: a new shell was started/);
      expect(r.output).toMatch(/\/workspace\/proj\n$/);
    });
  });

  describe('python_execute', () => {
    it('runs code in the sandbox and returns stdout and stderr', async () => {
      const r = await call(python, {
        code: 'import os, sys\nprint(os.getcwd(), os.getuid() != 0)\nprint("note", file=sys.stderr)',
      });
      expect(r).toMatchObject({ output: '/workspace True\n[stderr]\nnote\n', exitCode: 0 });
    });

    it('reports an exception as a failed call with the traceback', async () => {
      const r = await call(python, { code: 'print("partial")\n1/0' });
      expect(r.error).toMatch(/The Python code failed \(exit code 1\)/);
      expect(r.error).toMatch(/ZeroDivisionError/);
      expect(r.output).toBe('partial\n');
    });

    it('honours its timeout parameter', async () => {
      const started = performance.now();
      const r = await call(python, {
        code: 'import time\nprint("go", flush=True)\ntime.sleep(60)',
        timeout: 1,
      });
      expect(performance.now() - started).toBeLessThan(6_000);
      expect(r.error).toMatch(/The Python code timed out after 1s/);
      expect(r.output).toBe('go\n');
    });

    it('reports running out of memory as such, naming the setting to change', async () => {
      const r = await call(python, { code: 'x = bytearray(400 * 1024 * 1024)' });
      expect(r.error).toMatch(/ran out of memory \(\[sandbox\] memory_limit = "128m"\)/);
      expect(r.exitCode).toBe(137);
    });
  });

  describe('str_replace_editor', () => {
    it('sees files python_execute wrote, edits them, and the host workspace has the result', async () => {
      await call(python, {
        code: 'import os\nos.makedirs("data", exist_ok=True)\nopen("data/report.txt", "w").write("alpha\\nbeta\\ngamma\\n")',
      });
      const view = await call(editor, { command: 'view', path: '/workspace/data/report.txt' });
      expect(view.output).toBe(
        "Here's the result of running `cat -n` on /workspace/data/report.txt:\n     1\talpha\n     2\tbeta\n     3\tgamma\n",
      );
      const edit = await call(editor, {
        command: 'str_replace',
        path: '/workspace/data/report.txt',
        old_str: 'beta',
        new_str: 'BETA',
      });
      expect(edit.output).toMatch(/has been edited/);
      const host = readFileSync(join(session.workspaceDir, 'data/report.txt'), 'utf8');
      expect(host).toBe('alpha\nBETA\ngamma\n');
      const inserted = await call(editor, {
        command: 'insert',
        path: 'data/report.txt',
        insert_line: 1,
        new_str: 'after-alpha',
      });
      expect(inserted.error).toBeUndefined();
      expect((await call(bash, { command: 'cat /workspace/data/report.txt' })).output).toBe(
        'alpha\nafter-alpha\nBETA\ngamma\n',
      );
      const undo = await call(editor, { command: 'undo_edit', path: '/workspace/data/report.txt' });
      expect(undo.output).toMatch(/undone successfully/);
      expect(readFileSync(join(session.workspaceDir, 'data/report.txt'), 'utf8')).toBe(
        'alpha\nBETA\ngamma\n',
      );
    });

    it('creates files (never over existing ones), with folders and exotic names', async () => {
      const path = "/workspace/new dir/it's $(here).py";
      const created = await call(editor, { command: 'create', path, file_text: 'print(1)\n' });
      expect(created.output).toBe(`File created successfully at: ${path}`);
      expect(readFileSync(join(session.workspaceDir, "new dir/it's $(here).py"), 'utf8')).toBe(
        'print(1)\n',
      );
      const again = await call(editor, { command: 'create', path, file_text: 'x' });
      expect(again.error).toMatch(/File already exists/);
      const listing = await call(editor, { command: 'view', path: '/workspace' });
      expect(listing.output).toMatch(/up to 2 levels deep in \/workspace/);
      expect(listing.output).toContain("/workspace/new dir/it's $(here).py");
      expect((await call(editor, { command: 'undo_edit', path })).output).toMatch(/was removed/);
      expect(
        (await call(bash, { command: `test -e '/workspace/new dir/it'"'"'s $(here).py'; echo $?` }))
          .output,
      ).toBe('1\n');
    });

    it('refuses ambiguous or missing matches, and binary files', async () => {
      await call(editor, { command: 'create', path: '/workspace/dup.txt', file_text: 'x\nx\n' });
      const dup = await call(editor, {
        command: 'str_replace',
        path: '/workspace/dup.txt',
        old_str: 'x',
        new_str: 'y',
      });
      expect(dup.error).toMatch(/Multiple occurrences .* lines \[1,2\]/);
      const none = await call(editor, {
        command: 'str_replace',
        path: '/workspace/dup.txt',
        old_str: 'z',
      });
      expect(none.error).toMatch(/did not appear verbatim/);
      await call(python, { code: 'open("/workspace/blob.bin", "wb").write(bytes(range(256)))' });
      const blob = await call(editor, { command: 'view', path: '/workspace/blob.bin' });
      expect(blob.error).toMatch(/not a UTF-8 text file \(256 bytes\)/);
      const missing = await call(editor, { command: 'view', path: '/workspace/nope.txt' });
      expect(missing.error).toMatch(/does not exist/);
    });

    it('keeps every path inside the workspace, also through symlinks (S13)', async () => {
      await call(bash, {
        command: 'ln -sfn /etc /workspace/etc-link && ln -sfn /etc/passwd /workspace/pw',
      });
      for (const path of [
        '/etc/passwd',
        '/workspace/../etc/passwd',
        '../etc/passwd',
        '/workspace/etc-link/passwd',
        '/workspace/pw',
        '~/.bashrc',
      ]) {
        const r = await call(editor, { command: 'view', path });
        expect(r.error, path).toMatch(/outside the workspace|not expanded/);
      }
      const write = await call(editor, {
        command: 'create',
        path: '/workspace/etc-link/evil',
        file_text: 'x',
      });
      expect(write.error).toMatch(/outside the workspace/);
    });
  });

  it('recreates the sandbox when its container was killed from outside between calls', async () => {
    const before = await access.get();
    await docker('rm', '-f', before.id);
    const r = await call(bash, { command: 'ls /workspace/data' });
    expect(r.output).toMatch(/report\.txt/); // the workspace survived: it is a host folder
    expect(r.output).toMatch(/a new shell was started/);
    expect((await access.get()).id).not.toBe(before.id);
    const statuses = events.filter((e) => e.type === 'sandbox.changed').map((e) => e.status);
    expect(statuses).toContain('failed');
    expect(statuses.filter((s) => s === 'ready')).toHaveLength(2);
  });
});
