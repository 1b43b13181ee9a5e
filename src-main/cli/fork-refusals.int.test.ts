/**
 * `workbench runs fork` refuses up front what it cannot honour, and a fork killed while
 * its files are restored leaves nothing the next start does not sweep (issue 24 items 6,
 * 7 and 9). The built CLI, the real Docker engine, the scripted OpenAI server.
 *
 * - a step cut short by Ctrl-C has no snapshot: forking it is refused (exit 2, nothing
 *   recorded, the reason said once), and `--without-files` forks it into an empty
 *   workspace;
 * - a profile that does not exist, and `--max-steps` at or below the fork step: exit 2,
 *   nothing recorded, said once;
 * - kill -9 during a fork's restore of a large workspace: the fork's folder is left
 *   with no history naming it; the next command that opens the runtime removes it.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorkbench } from './testing/workbench-child';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import type { RecordedRequest } from '../runtime/llm/testing/scripted-types';
import { LABELS } from '../runtime/sandbox/container-policy';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';
import { containersWith, docker } from '../runtime/sandbox/testing/sandbox-fixture';

const dockerProbe = await probeDocker();

/** Step 1 writes 200 MB (a restore that takes a while); step 2 sleeps; then terminate. */
function script(request: RecordedRequest) {
  const results = request.messages.filter((m) => m.role === 'tool').length;
  if (request.messages.some((m) => m.role === 'user' && m.content === 'finish now')) {
    return { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  }
  if (results === 0) {
    const command = 'head -c 200000000 /dev/zero | tr "\\0" x > /workspace/big.txt';
    return { toolCalls: [{ name: 'bash', arguments: { command } }] };
  }
  if (results === 1) {
    return { toolCalls: [{ name: 'bash', arguments: { command: 'sleep 120' } }] };
  }
  return { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
}

const historyIds = (home: string) =>
  readdirSync(join(home, 'runs'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length))
    .sort();

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe.skipIf(!dockerProbe.available)('workbench runs fork: refusals and a killed fork', () => {
  const server = new ScriptedOpenAiServer(script);
  let killedSession = '';
  afterAll(async () => {
    await server.close();
    // The killed CLI could not remove its container; the next sandbox use of the app
    // sweeps it (sandbox-manager.ts), which this test's later commands never needed.
    if (killedSession) {
      for (const id of await containersWith({ [LABELS.session]: killedSession }))
        await docker('rm', '-f', id);
    }
  });

  it('refuses what it cannot honour, and sweeps what a killed fork left', async () => {
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), 'wb-fork-refusals-'));
    const config = join(home, 'config.toml');
    writeFileSync(
      config,
      `[llm]\nmodel = "gpt-fork"\nbase_url = "${baseUrl}"\napi_key = "sk-fork-test-1234"\n\n` +
        `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
      { mode: 0o600 },
    );
    // The parent: step 1 writes 200 MB (snapshot kept), step 2 is stopped with Ctrl-C
    // while its command runs: step 2 finishes without a snapshot.
    const parent = await runWorkbench(
      home,
      ['run', '--agent', 'swe', '--jsonl', '--config', config, 'work'],
      {
        onEvent: (event, signal) => {
          if (event.type === 'tool.started' && event.step === 2)
            setTimeout(() => signal('SIGINT'), 1_000);
        },
      },
    );
    expect(parent.code, parent.stderr).toBe(130);
    const parentId = parent.events[0]!.runId;
    expect(parent.events.some((e) => e.type === 'step.finished' && e.step === 2)).toBe(true);
    const known = historyIds(home);

    const refused = async (args: string[], pattern: RegExp) => {
      const ran = await runWorkbench(home, ['runs', 'fork', parentId, ...args, '--config', config]);
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toMatch(pattern);
      // said once, and nothing recorded
      expect(count(ran.stderr, pattern)).toBe(1);
      expect(ran.events).toEqual([]);
      expect(historyIds(home)).toEqual(known);
      expect(readdirSync(join(home, 'workspaces')).filter((n) => n.startsWith('fork-'))).toEqual(
        [],
      );
    };
    await refused(
      ['--at', '2'],
      /cannot be forked at step 2 with its files: no snapshot of step 2 was kept/,
    );
    await refused(
      ['--at', '1', '--agent-model', '../../x'],
      /model profile "\.\.\/\.\.\/x" cannot be used/,
    );
    await refused(['--at', '1', '--max-steps', '1'], /--max-steps \(1\) must be more than/);

    // Asked for: step 2 without its files, in an empty workspace.
    const empty = await runWorkbench(home, [
      'runs',
      'fork',
      parentId,
      '--at',
      '2',
      '--without-files',
      '--message',
      'finish now',
      '--jsonl',
      '--config',
      config,
    ]);
    expect(empty.code, empty.stderr).toBe(0);
    const emptyId = empty.events[0]!.runId;
    expect(readdirSync(join(home, 'workspaces', `fork-${emptyId}`))).toEqual([]);

    // kill -9 while the 200 MB of step 1 are restored into the fork's container
    let forkDir = '';
    const killed = await runWorkbench(
      home,
      ['runs', 'fork', parentId, '--at', '1', '--jsonl', '--config', config],
      {
        whileRunning: (signal) => {
          const poll = setInterval(() => {
            const made = readdirSync(join(home, 'workspaces')).find(
              (n) => n.startsWith('fork-') && n !== `fork-${emptyId}`,
            );
            // the restore has begun writing the 200 MB file into the fork's workspace
            if (!made || !existsSync(join(home, 'workspaces', made, 'big.txt'))) return;
            forkDir = join(home, 'workspaces', made);
            clearInterval(poll);
            signal('SIGKILL');
          }, 5);
        },
      },
    );
    expect(killed.code).toBe(null);
    expect(forkDir).not.toBe('');
    const forkId = forkDir.slice(forkDir.lastIndexOf('fork-') + 'fork-'.length);
    killedSession = `fork-${forkId}`;
    expect(killed.stderr).toContain(forkId);
    // left behind: a folder no history names
    expect(existsSync(forkDir)).toBe(true);
    expect(historyIds(home)).not.toContain(forkId);

    // the next command that opens the runtime sweeps it (here: deleting the empty fork)
    const next = await runWorkbench(home, ['runs', 'delete', emptyId]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/removed .*fork-.*the run it was made for never started/);
    expect(existsSync(forkDir)).toBe(false);
    expect(readdirSync(join(home, 'workspaces')).filter((n) => n.startsWith('fork-'))).toEqual([]);
  }, 240_000);
});
