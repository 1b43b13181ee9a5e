/**
 * Fork from a step, against the real Docker engine and the scripted model (issue 14,
 * "Done when"): a Manus run writes files in steps 1-3 and deletes one in step 4; a fork
 * at step 2 with an added message and another model profile works in a fresh container
 * holding exactly the step-2 files (byte-compared), its first model request is exactly
 * the step-2 context plus the message, it finishes, and the original run, its history
 * and its container are untouched. Deleting the runs leaves no snapshot, workspace or
 * container behind.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { ChatRequest } from '../llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { LABELS } from '../sandbox/container-policy';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { containersOf, containersWith } from '../sandbox/testing/sandbox-fixture';

const docker = await probeDocker();
const FORK_MESSAGE = 'Do not delete anything; check the files instead.';

const bash = (command: string): ScriptedReply => ({
  content: `running ${command.slice(0, 20)}`,
  toolCalls: [{ name: 'bash', args: { command } }],
});
const done: ScriptedReply = { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };

/** The original's plan by the number of tool results so far; a fork checks and ends. */
function script(request: ChatRequest): ScriptedReply {
  const isFork = request.messages.some((m) => m.content === FORK_MESSAGE);
  const results = request.messages.filter((m) => m.role === 'tool').length;
  // The restored files and folders are the sandbox user's: the fork can write there.
  if (isFork)
    return results === 2 ? bash('test -w /workspace/d/empty && test -w /workspace/a.txt') : done;
  switch (results) {
    case 0:
      return bash('mkdir -p /workspace/d/empty && printf one > /workspace/a.txt');
    case 1:
      return bash(
        'printf two > /workspace/b.txt && head -c 300000 /dev/urandom > /workspace/d/bin',
      );
    case 2:
      return bash('printf three > /workspace/c.txt && printf TWO > /workspace/b.txt');
    case 3:
      return bash('rm /workspace/a.txt');
    default:
      return done;
  }
}

/** path -> sha256 (files) or "dir" (folders), relative to `root`. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        out[relative(root, path)] = 'dir';
        walk(path);
      } else {
        out[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(root);
  return out;
}

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

describe.skipIf(!docker.available)('fork a run from a step', () => {
  let runtime: Runtime | undefined;
  afterAll(async () => {
    await runtime?.dispose();
    if (runtime) expect(await containersOf(runtime.services.sandboxes)).toEqual([]);
  });

  it('restores the step files and context in a fresh container; the original is untouched', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-fork-'));
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\nmodel = "scripted-a"\napi_key = "sk-test-fork"\n\n[llm.other]\nmodel = "scripted-b"\n\n` +
        `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
    );
    const clients: ScriptedLlm[] = [];
    runtime = createRuntime({
      home,
      createLlm: (profile) => {
        const llm = new ScriptedLlm(script, { model: profile.model });
        clients.push(llm);
        return llm;
      },
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));

    const original = runtime.runs.start({ task: 'write some files', agent: 'manus' });
    expect((await original.done).outcome).toBe('finished');
    const originalClient = clients.at(-1)!;
    const originalWorkspace = join(home, 'workspaces', runtime.sessionId);
    const before = tree(originalWorkspace);
    expect(Object.keys(before).sort()).toEqual(['b.txt', 'c.txt', 'd', 'd/bin', 'd/empty']);
    const logPath = join(home, 'runs', `${original.runId}.jsonl`);
    const logBefore = sha(readFileSync(logPath));
    const containerBefore = await containersWith({ [LABELS.session]: runtime.sessionId });
    expect(containerBefore).toHaveLength(1);

    const forkStarted = performance.now();
    const fork = await runtime.runs.startFrom({
      kind: 'fork',
      runId: original.runId,
      step: 2,
      message: FORK_MESSAGE,
      agentModel: 'other',
    });
    expect((await fork.done).outcome).toBe('finished');
    const forkClient = clients.at(-1)!;
    expect(forkClient.model).toBe('scripted-b');
    console.log(`fork: ${Math.round(performance.now() - forkStarted)} ms from fork to its end`);

    // Exactly the step-2 files: a.txt and b.txt as written then, the binary, the empty folder.
    const forkWorkspace = join(home, 'workspaces', `fork-${fork.runId}`);
    expect(tree(forkWorkspace)).toEqual({
      'a.txt': sha('one'),
      'b.txt': sha('two'),
      d: 'dir',
      'd/bin': before['d/bin'],
      'd/empty': 'dir',
    });

    // Its first request: the original's step-3 request (step-2 context + the next-step
    // prompt) with the added message in front of that prompt.
    const parentThird = originalClient.requests[2]!.messages;
    const forkFirst = forkClient.requests[0]!.messages;
    expect(forkFirst).toEqual([
      ...parentThird.slice(0, -1),
      { role: 'user', content: FORK_MESSAGE },
      parentThird.at(-1),
    ]);

    // Lineage on run.started; the fork counts on from step 3.
    const forkEvents = events.filter((e) => e.runId === fork.runId);
    expect(forkEvents[0]).toMatchObject({
      type: 'run.started',
      forkOf: { runId: original.runId, step: 2 },
      model: 'scripted-b',
    });
    expect(forkEvents.find((e) => e.type === 'step.started')).toMatchObject({ step: 3 });
    expect(forkEvents.find((e) => e.type === 'tool.finished')).toMatchObject({ exitCode: 0 });

    // The original: same history bytes, same files, same container.
    expect(sha(readFileSync(logPath))).toBe(logBefore);
    expect(tree(originalWorkspace)).toEqual(before);
    expect(await containersWith({ [LABELS.session]: runtime.sessionId })).toEqual(containerBefore);
    // The fork's container went with the fork's end.
    expect(await containersWith({ [LABELS.session]: `fork-${fork.runId}` })).toEqual([]);

    // Snapshots are beside the histories; deleting a run removes them and its workspace.
    const checkpoints = (id: string) => join(home, 'runs', `${id}.checkpoints`);
    expect(existsSync(checkpoints(original.runId))).toBe(true);
    expect(existsSync(checkpoints(fork.runId))).toBe(true);
    expect((await runtime.runs.remove(fork.runId)).removed).toBe(true);
    expect(existsSync(checkpoints(fork.runId))).toBe(false);
    expect(existsSync(forkWorkspace)).toBe(false);
    expect((await runtime.runs.remove(original.runId)).removed).toBe(true);
    expect(existsSync(checkpoints(original.runId))).toBe(false);
    expect(existsSync(logPath)).toBe(false);
    expect(runtime.runs.list().map((s) => s.runId)).not.toContain(original.runId);
  }, 180_000);
});
