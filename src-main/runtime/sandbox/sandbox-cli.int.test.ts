/**
 * The sandbox through the built `workbench` command, as a user runs it: `run --agent
 * swe` and `--agent manus` use the image from `[sandbox] image` in the config file; a
 * CLI killed with SIGKILL leaves a container that the next start removes (S9); Ctrl-C
 * removes the sandbox and exits 130.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ScriptedServerReply,
} from '../llm/testing/scripted-openai-server';
import { LABELS } from './container-policy';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from './testing/docker-env';
import { containersWith, docker } from './testing/sandbox-fixture';

const engine = await probeDocker();
const root = fileURLToPath(new URL('../../..', import.meta.url));
const spawned: number[] = [];
const servers: ScriptedOpenAiServer[] = [];

interface Cli {
  child: ChildProcess;
  home: string;
  done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
}

function workbench(
  args: string[],
  options: { home?: string; env?: Record<string, string> } = {},
): Cli {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'wb-cli-sandbox-'));
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: home, ...options.env },
  });
  if (child.pid) spawned.push(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{
    code: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, home, done };
}

function configFile(dir: string, extra = ''): string {
  const path = join(dir, 'config.toml');
  writeFileSync(path, `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n${extra}`);
  return path;
}

function events(stdout: string): RunEvent[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}

async function ownedBy(pid: number): Promise<string[]> {
  return containersWith({ [LABELS.pid]: String(pid) });
}

async function scriptedModel(replies: ScriptedServerReply[]): Promise<string> {
  const { server, baseUrl } = await startScriptedServer(replies);
  servers.push(server);
  return `[llm]\nmodel = "scripted"\nbase_url = "${baseUrl}"\napi_key = "sk-test-sandbox"\n`;
}

describe.skipIf(!engine.available || !existsSync(join(root, 'out/main/cli.js')))(
  'sandbox from the workbench CLI',
  () => {
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.close()));
      // Nothing any CLI of this file started may be left behind.
      const left = (await Promise.all(spawned.map(ownedBy))).flat();
      if (left.length > 0) await docker('rm', '-f', ...left);
      expect(left).toEqual([]);
    });

    it('swe: bash and the editor run in a sandbox of the configured image; exit code and stderr kept', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wb-cli-cfg-'));
      const llm = await scriptedModel([
        {
          toolCalls: [{ name: 'bash', arguments: { command: 'echo 42; echo oops >&2; (exit 3)' } }],
        },
        {
          toolCalls: [
            {
              name: 'str_replace_editor',
              arguments: {
                command: 'create',
                path: '/workspace/out.txt',
                file_text: 'made by swe\n',
              },
            },
          ],
        },
        { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
      ]);
      const cli = workbench(
        ['run', '--agent', 'swe', '--jsonl', '--config', configFile(dir, llm), 'fix it'],
        {
          home: dir,
        },
      );
      const { code, stdout, stderr } = await cli.done;
      expect(code, stderr).toBe(0);
      const all = events(stdout);
      const ready = all.find((e) => e.type === 'sandbox.changed' && e.status === 'ready');
      expect(ready).toMatchObject({ image: LOCAL_SANDBOX_IMAGE });
      const bash = all.find((e) => e.type === 'tool.finished' && e.name === 'bash');
      // a non-zero exit is a failed call in the stream too (docs/run-outcome.md, issue 25)
      expect(bash).toMatchObject({ ok: false, exitCode: 3 });
      expect(bash).not.toHaveProperty('error');
      expect(bash && 'output' in bash ? bash.output : '').toBe(
        '42\n[stderr]\noops\n\n(exit code 3)',
      );
      expect(all.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
      const sessionId = (all[0] as Extract<RunEvent, { type: 'run.started' }>).sessionId;
      expect(readFileSync(join(dir, 'workspaces', sessionId, 'out.txt'), 'utf8')).toBe(
        'made by swe\n',
      );
      expect(await ownedBy(cli.child.pid ?? -1)).toEqual([]);
    });

    it('manus: python_execute runs in the sandbox', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wb-cli-cfg-'));
      const llm = await scriptedModel([
        {
          toolCalls: [
            { name: 'python_execute', arguments: { code: 'import os\nprint(6 * 7, os.getcwd())' } },
          ],
        },
        { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
      ]);
      const cli = workbench(
        ['run', '--agent', 'manus', '--jsonl', '--config', configFile(dir, llm), 'compute'],
        {
          home: dir,
        },
      );
      const { code, stdout, stderr } = await cli.done;
      expect(code, stderr).toBe(0);
      const python = events(stdout).find(
        (e) => e.type === 'tool.finished' && e.name === 'python_execute',
      );
      expect(python).toMatchObject({ ok: true, exitCode: 0, output: '42 /workspace\n' });
      expect(await ownedBy(cli.child.pid ?? -1)).toEqual([]);
    });

    it('a CLI killed with SIGKILL mid-run leaves its container, and the next start removes it (S9)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wb-cli-cfg-'));
      const config = configFile(dir);
      // The demo model (no API key) waits before answering; swe pre-warms its sandbox meanwhile.
      const victim = workbench(['run', '--agent', 'swe', '--config', config, 'slow task'], {
        home: dir,
        env: { WORKBENCH_DEMO_DELAY_MS: '60000' },
      });
      const pid = victim.child.pid ?? -1;
      let left: string[] = [];
      for (let i = 0; i < 100 && left.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        left = await ownedBy(pid);
      }
      expect(left).toHaveLength(1);
      victim.child.kill('SIGKILL');
      expect((await victim.done).signal).toBe('SIGKILL');
      expect(await ownedBy(pid)).toEqual(left);

      const next = workbench(['run', '--agent', 'toolcall', '--config', config, 'hello'], {
        home: dir,
        env: { WORKBENCH_DEMO_DELAY_MS: '5' },
      });
      const { code, stderr } = await next.done;
      expect(code, stderr).toBe(0);
      expect(await ownedBy(pid)).toEqual([]);
    });

    it('Ctrl-C stops the run, removes the sandbox and exits 130', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wb-cli-cfg-'));
      const cli = workbench(['run', '--agent', 'swe', '--config', configFile(dir), 'slow task'], {
        home: dir,
        env: { WORKBENCH_DEMO_DELAY_MS: '60000' },
      });
      const pid = cli.child.pid ?? -1;
      let left: string[] = [];
      for (let i = 0; i < 100 && left.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        left = await ownedBy(pid);
      }
      expect(left).toHaveLength(1);
      cli.child.kill('SIGINT');
      const { code } = await cli.done;
      expect(code).toBe(130);
      expect(await ownedBy(pid)).toEqual([]);
    });
  },
);
