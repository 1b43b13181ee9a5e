/**
 * `workbench runs continue RUN MESSAGE` (issue 25, "Also build"): the built CLI, the real
 * Docker engine, the scripted OpenAI server. A swe run writes a file; `runs continue
 * last "..."` goes on in the same workspace (its tool reads the file), its first request
 * carries the whole conversation plus the message, and it is recorded as `continueOf`;
 * a unique id prefix names a run as in `runs show`; `--max-steps N` is N more steps (exit
 * 3 when they run out); bad usage and refusals (no message, no such
 * run, a workspace that is gone) exit 2 with the reason said once, recording nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorkbench } from './testing/workbench-child';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import type { RecordedRequest } from '../runtime/llm/testing/scripted-types';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';

const dockerProbe = await probeDocker();

const text = (m: { content?: unknown }) => (typeof m.content === 'string' ? m.content : '');
const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });
const done = { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };

/** The run writes the note; each follow-up ("FOLLOW ...") reads it, then terminates. */
function script(request: RecordedRequest) {
  const follow = request.messages.findLastIndex(
    (m) => m.role === 'user' && text(m).startsWith('FOLLOW'),
  );
  const results = request.messages.slice(follow + 1).filter((m) => m.role === 'tool').length;
  if (follow >= 0) return results === 0 ? bash('cat /workspace/note.txt') : done;
  return results === 0 ? bash('printf "left by the run" > /workspace/note.txt') : done;
}

const historyIds = (home: string) =>
  readdirSync(join(home, 'runs'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe.skipIf(!dockerProbe.available)('workbench runs continue', () => {
  const server = new ScriptedOpenAiServer(script);
  afterAll(async () => {
    await server.close();
  });

  it('goes on with a finished run in its workspace; refusals exit 2', async () => {
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), 'wb-continue-cli-'));
    const config = join(home, 'config.toml');
    writeFileSync(
      config,
      `[llm]\nmodel = "gpt-continue"\nbase_url = "${baseUrl}"\napi_key = "sk-continue-test-1234"\n\n` +
        `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n`,
      { mode: 0o600 },
    );
    const cli = (args: string[]) => runWorkbench(home, [...args, '--config', config]);

    const parent = await cli(['run', '--agent', 'swe', '--jsonl', 'write a note']);
    expect(parent.code, parent.stderr).toBe(0);
    const parentId = parent.events[0]!.runId;
    const sessionId = parent.events[0]!.type === 'run.started' ? parent.events[0]!.sessionId : '';
    const parentLast = server.requests.at(-1)!;

    const before = server.requests.length;
    const next = await cli(['runs', 'continue', 'last', 'FOLLOW 1: read the note', '--jsonl']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(new RegExp(`workbench: run ${next.events[0]!.runId}`));
    expect(next.events[0]).toMatchObject({
      type: 'run.started',
      continueOf: { runId: parentId, step: 2 },
      sessionId,
      task: 'FOLLOW 1: read the note',
    });
    expect(next.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    const read = next.events.find((e) => e.type === 'tool.finished' && e.name === 'bash');
    expect(read?.type === 'tool.finished' && read.output).toContain('left by the run');
    const first = server.requests[before]!;
    expect(first.messages.slice(0, parentLast.messages.length)).toEqual(parentLast.messages);
    expect(first.messages.at(-1)).toEqual({ role: 'user', content: 'FOLLOW 1: read the note' });

    // A prefix of the continuation's id; one more step only: it runs out (exit 3).
    const nextId = next.events[0]!.runId;
    const limited = await cli([
      'runs',
      'continue',
      nextId.slice(0, 20),
      'FOLLOW 2: again',
      '--max-steps',
      '1',
    ]);
    expect(limited.code, limited.stderr).toBe(3);
    expect(limited.stderr).toMatch(/max 5 steps/);
    expect(limited.stderr).toContain(`continues run ${nextId} after its step 4`);
    expect(limited.stderr).toMatch(/left by the run/);
    const runs = historyIds(home);

    // Refusals: bad usage and what cannot be honoured, said once, nothing recorded.
    const refused = async (args: string[], pattern: RegExp) => {
      const ran = await cli(['runs', 'continue', ...args]);
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toMatch(pattern);
      expect(count(ran.stderr, pattern)).toBe(1);
      expect(ran.events).toEqual([]);
      expect(historyIds(home)).toEqual(runs);
    };
    await refused(['last'], /usage: workbench runs continue RUN MESSAGE/);
    await refused(['last', '  '], /the message is empty/);
    await refused(['last', 'two', 'words'], /the message is one argument: quote it/);
    await refused(['nope', 'FOLLOW 3'], /no run/i);
    await refused([parentId, 'FOLLOW 3', '--max-steps', '0'], /--max-steps must be a positive/);
    rmSync(join(home, 'workspaces', sessionId), { recursive: true, force: true });
    await refused(
      [parentId, 'FOLLOW 3'],
      /cannot be continued: the workspace it worked in \(.*\) is gone/,
    );
    expect(readdirSync(join(home, 'workspaces'))).not.toContain(sessionId);
    expect(readFileSync(join(home, 'runs', `${parentId}.jsonl`), 'utf8')).toContain('run.finished');
  }, 240_000);
});
