/**
 * Continue a finished run (issue 25, "Also build"), against the real Docker engine and
 * the scripted OpenAI-compatible server: a swe run writes a file and finishes; it is
 * continued with a follow-up message; the continuation works in the same session, the
 * same container and the same folder (its tool reads the file the run left), its first
 * model request is the run's whole conversation plus the message (the server's recorded
 * requests), it counts on from the next step with a fresh budget, on the profile the run
 * used (not today's), and it is recorded as `continueOf`. A continuation is continued
 * again (a chain), and so is a fork (in its own folder). The same in a mounted folder and
 * in an isolated copy (the original untouched). Refused up front, with nothing recorded:
 * a run whose workspace is gone (a session folder, a copy), an imported run, a run still
 * going.
 */
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedOpenAiServer } from '../llm/testing/scripted-openai-server';
import type { RecordedRequest } from '../llm/testing/scripted-types';
import { createRuntime, type Runtime } from '../runtime';
import { LineageError } from '../runs/run-lineage';
import { exportRun, importRun } from '../runs/run-transfer';
import { MemoryRunHistory } from '../runs/run-history';
import { LABELS } from '../sandbox/container-policy';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { containersOf, containersWith } from '../sandbox/testing/sandbox-fixture';

const docker = await probeDocker();

const bash = (command: string) => ({
  content: `running: ${command}`,
  toolCalls: [{ name: 'bash', arguments: { command } }],
});
const done = { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
const text = (m: { content?: unknown }) => (typeof m.content === 'string' ? m.content : '');

/**
 * A run's first request writes the note; a follow-up ("FOLLOW <n>: ...") reads it and
 * adds a line; "SLOW" takes its time; then terminate.
 */
function script(request: RecordedRequest) {
  const messages = request.messages;
  const follow = messages.findLastIndex((m) => m.role === 'user' && text(m).startsWith('FOLLOW'));
  const results = messages.slice(follow + 1).filter((m) => m.role === 'tool').length;
  if (follow >= 0) {
    const n = /^FOLLOW (\d+)/.exec(text(messages[follow]!))![1];
    return results === 0
      ? bash(`cat /workspace/note.txt && printf ' and ${n}' >> /workspace/note.txt`)
      : done;
  }
  if (messages.some((m) => text(m).includes('SLOW'))) {
    return results === 0 ? bash('sleep 4') : done;
  }
  return results === 0 ? bash('printf "written by the run" > /workspace/note.txt') : done;
}

describe.skipIf(!docker.available)('continue a finished run', () => {
  const server = new ScriptedOpenAiServer(script);
  const runtimes: Runtime[] = [];
  afterAll(async () => {
    for (const runtime of runtimes) {
      await runtime.dispose();
      expect(await containersOf(runtime.services.sandboxes)).toEqual([]);
    }
    await server.close();
  });

  async function open(withFastProfile = true) {
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), 'wb-continue-'));
    const config = (fast: boolean) =>
      `[llm]\nmodel = "gpt-main"\nbase_url = "${baseUrl}"\napi_key = "sk-continue-1234"\n\n` +
      `[llm.fast]\nmodel = "gpt-fast"\n\n[agent.swe]\nmax_steps = 6\n${fast ? 'llm = "fast"\n' : ''}\n` +
      `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`;
    writeFileSync(join(home, 'config.toml'), config(withFastProfile), { mode: 0o600 });
    const runtime = createRuntime({ home });
    runtimes.push(runtime);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const of = (runId: string) => events.filter((e) => e.runId === runId);
    return {
      home,
      runtime,
      of,
      setConfig: (fast: boolean) => writeFileSync(join(home, 'config.toml'), config(fast)),
    };
  }

  it('goes on in the same session, container and files, with the whole conversation plus the message; a chain', async () => {
    const { home, runtime, of, setConfig } = await open();
    const parent = runtime.runs.start({ task: 'write a note', agent: 'swe' });
    expect((await parent.done).outcome).toBe('finished');
    const sessionId = runtime.sessionId;
    const folder = join(home, 'workspaces', sessionId);
    expect(readFileSync(join(folder, 'note.txt'), 'utf8')).toBe('written by the run');
    const containers = await containersWith({ [LABELS.session]: sessionId });
    expect(containers).toHaveLength(1);
    const parentLast = server.requests.at(-1)!;
    expect(parentLast.model).toBe('gpt-fast');
    // Today's config no longer gives swe the fast profile: the continuation keeps the run's.
    setConfig(false);

    const before = server.requests.length;
    const next = await runtime.runs.startFrom({
      kind: 'continue',
      runId: parent.runId,
      message: 'FOLLOW 1: read the note back',
    });
    expect((await next.done).outcome).toBe('finished');
    const events = of(next.runId);
    expect(events[0]).toMatchObject({
      type: 'run.started',
      agent: 'swe',
      task: 'FOLLOW 1: read the note back',
      continueOf: { runId: parent.runId, step: 2 },
      sessionId,
      model: 'gpt-fast',
      // a fresh budget: swe's max_steps after the run's 2 steps
      maxSteps: 8,
    });
    expect(events.find((e) => e.type === 'step.started')).toMatchObject({ step: 3, maxSteps: 8 });
    // Its tool saw the file as the run left it, in the same container.
    const read = events.find((e) => e.type === 'tool.finished' && e.name === 'bash');
    expect(read).toMatchObject({ ok: true, exitCode: 0 });
    expect(read?.type === 'tool.finished' && read.output).toContain('written by the run');
    expect(readFileSync(join(folder, 'note.txt'), 'utf8')).toBe('written by the run and 1');
    expect(await containersWith({ [LABELS.session]: sessionId })).toEqual(containers);
    // ending with terminate as the run did repeats nothing
    expect(runtime.runs.get(next.runId)?.health?.duplicates).toBe(0);

    // Its first request: the run's whole conversation (its last request, then the
    // terminate call and its result), then the message (swe sends no per-step prompt).
    const first = server.requests[before]!;
    expect(first.rejected).toBeUndefined();
    expect(first.model).toBe('gpt-fast');
    const parentContext = parentLast.messages;
    expect(first.messages.slice(0, parentContext.length)).toEqual(parentContext);
    const added = first.messages.slice(parentContext.length);
    expect(added.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(JSON.stringify(added[0])).toContain('terminate');
    expect(added[2]).toEqual({ role: 'user', content: 'FOLLOW 1: read the note back' });

    // A chain: the continuation continued, with both follow-ups in its context.
    const before2 = server.requests.length;
    const third = await runtime.runs.startFrom({
      kind: 'continue',
      runId: next.runId,
      message: 'FOLLOW 2: once more',
      maxSteps: 3,
    });
    expect((await third.done).outcome).toBe('finished');
    expect(of(third.runId)[0]).toMatchObject({
      continueOf: { runId: next.runId, step: 4 },
      maxSteps: 7,
      sessionId,
    });
    const chained = server.requests[before2]!.messages.map(text);
    expect(chained).toContain('write a note');
    expect(chained).toContain('FOLLOW 1: read the note back');
    expect(chained.at(-1)).toBe('FOLLOW 2: once more');
    const readAgain = of(third.runId).find((e) => e.type === 'tool.finished');
    expect(readAgain?.type === 'tool.finished' && readAgain.output).toContain(
      'written by the run and 1',
    );
    // The history nests the chain through continueOf, summaries included.
    expect(runtime.runs.get(third.runId)?.continueOf).toEqual({ runId: next.runId, step: 4 });

    // A fork's continuation goes on in the fork's own folder (its session was closed at
    // its end: opened again, the files as the fork left them).
    const fork = await runtime.runs.startFrom({ kind: 'fork', runId: parent.runId, step: 1 });
    expect((await fork.done).outcome).toBe('finished');
    const ofFork = await runtime.runs.startFrom({
      kind: 'continue',
      runId: fork.runId,
      message: 'FOLLOW 3: in the fork',
    });
    expect((await ofFork.done).outcome).toBe('finished');
    expect(of(ofFork.runId)[0]).toMatchObject({ sessionId: `fork-${fork.runId}` });
    expect(readFileSync(join(home, 'workspaces', `fork-${fork.runId}`, 'note.txt'), 'utf8')).toBe(
      'written by the run and 3',
    );

    // Exported and imported with its lineage; an imported run is never continued.
    const other = new MemoryRunHistory();
    importRun(other, exportRun(runtime.runs.history, parent.runId).content, 'a.jsonl');
    const imported = importRun(
      other,
      exportRun(runtime.runs.history, next.runId).content,
      'b.jsonl',
    );
    expect(imported.summary.continueOf).toEqual({ runId: parent.runId, step: 2 });
    const elsewhere = await open();
    importRun(
      elsewhere.runtime.runs.history,
      exportRun(runtime.runs.history, parent.runId).content,
      'a.jsonl',
    );
    await expect(
      elsewhere.runtime.runs.startFrom({
        kind: 'continue',
        runId: parent.runId,
        message: 'FOLLOW 9',
      }),
    ).rejects.toThrow(/was imported.*cannot be continued here/);
  }, 240_000);

  it('in a mounted folder and in an isolated copy (the original untouched)', async () => {
    const { home, runtime, of } = await open();
    const mounted = mkdtempSync(join(tmpdir(), 'wb-continue-mount-'));
    // the sandbox writes in a chosen folder as its owner, never as root
    if (process.getuid?.() === 0) chownSync(mounted, 1000, 1000);
    const parent = runtime.runs.start({
      task: 'write a note',
      agent: 'swe',
      workspace: { path: mounted, mode: 'mount' },
    });
    expect((await parent.done).outcome).toBe('finished');
    const next = await runtime.runs.startFrom({
      kind: 'continue',
      runId: parent.runId,
      message: 'FOLLOW 1',
    });
    expect((await next.done).outcome).toBe('finished');
    expect(of(next.runId)[0]).toMatchObject({ workspace: { path: mounted, mode: 'mount' } });
    expect(readFileSync(join(mounted, 'note.txt'), 'utf8')).toBe('written by the run and 1');

    const original = mkdtempSync(join(tmpdir(), 'wb-continue-orig-'));
    writeFileSync(join(original, 'keep.txt'), 'original');
    const copied = runtime.runs.start({
      task: 'write a note',
      agent: 'swe',
      workspace: { path: original, mode: 'copy' },
    });
    expect((await copied.done).outcome).toBe('finished');
    const copy = join(home, 'workspaces', `copy-${copied.runId}`);
    const c1 = await runtime.runs.startFrom({
      kind: 'continue',
      runId: copied.runId,
      message: 'FOLLOW 1',
    });
    expect((await c1.done).outcome).toBe('finished');
    const c2 = await runtime.runs.startFrom({
      kind: 'continue',
      runId: c1.runId,
      message: 'FOLLOW 2',
    });
    expect((await c2.done).outcome).toBe('finished');
    expect(of(c2.runId)[0]).toMatchObject({
      workspace: { path: original, mode: 'copy', copyPath: copy },
    });
    expect(readFileSync(join(copy, 'note.txt'), 'utf8')).toBe('written by the run and 1 and 2');
    expect(existsSync(join(original, 'note.txt'))).toBe(false);

    // The copy gone: refused up front, nothing recorded.
    rmSync(copy, { recursive: true, force: true });
    const count = runtime.runs.list().length;
    await expect(
      runtime.runs.startFrom({ kind: 'continue', runId: c2.runId, message: 'FOLLOW 3' }),
    ).rejects.toThrow(/worked on a copy of its folder .* that is gone or unusable/);
    expect(runtime.runs.list()).toHaveLength(count);
    expect(existsSync(copy)).toBe(false);
  }, 240_000);

  it('refuses a run whose session folder is gone and a run still going, recording nothing', async () => {
    const { home, runtime } = await open();
    const parent = runtime.runs.start({ task: 'write a note', agent: 'swe', sessionId: 'gone-1' });
    expect((await parent.done).outcome).toBe('finished');
    const folder = join(home, 'workspaces', 'gone-1');
    await runtime.services.sessions.close('gone-1');
    rmSync(folder, { recursive: true, force: true });
    const count = runtime.runs.list().length;
    const refused = await runtime.runs
      .startFrom({ kind: 'continue', runId: parent.runId, message: 'FOLLOW 1' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LineageError);
    expect((refused as LineageError).code).toBe('conflict');
    expect((refused as Error).message).toMatch(
      /cannot be continued: the workspace it worked in \(.*gone-1\) is gone/,
    );
    expect(runtime.runs.list()).toHaveLength(count);
    expect(existsSync(folder)).toBe(false);

    const slow = runtime.runs.start({ task: 'SLOW', agent: 'swe' });
    for (let i = 0; i < 200 && !runtime.runs.history.read(slow.runId); i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await expect(
      runtime.runs.startFrom({ kind: 'continue', runId: slow.runId, message: 'FOLLOW 1' }),
    ).rejects.toThrow(/cannot be continued: it is still running/);
    expect((await slow.done).outcome).toBe('finished');
  }, 180_000);
});
