import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

/** A model that talks for `steps` steps, then terminates; its text may include `say`. */
function talker(model: string, steps: number, delayMs: number, say = '') {
  return new ScriptedLlm(
    (_request, i) =>
      i + 1 < steps
        ? { delayMs, content: `step ${i + 1} of ${model} ${say}` }
        : {
            delayMs,
            content: 'done',
            toolCalls: [{ name: 'terminate', args: { status: 'success' } }],
          },
    { model },
  );
}

function home(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-home-'));
  writeFileSync(join(dir, 'config.toml'), config);
  return dir;
}

describe('RunManager', () => {
  it('runs several agents at once, each with its own model client and a gapless seq', async () => {
    const created: string[] = [];
    runtime = createRuntime({
      home: home(
        '[llm]\nmodel = "base-model"\napi_key = "k-default-123"\n[llm.swe]\nmodel = "swe-model"\n',
      ),
      createLlm: (profile) => {
        created.push(profile.model);
        return talker(profile.model, 3, 5);
      },
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const a = runtime.runs.start({ task: 'one', agent: 'manus' });
    const b = runtime.runs.start({ task: 'two', agent: 'swe' });
    const c = runtime.runs.start({ task: 'three', agent: 'toolcall', sessionId: 'other' });
    expect(new Set([a.runId, b.runId, c.runId]).size).toBe(3);
    expect(runtime.runs.list().filter((s) => runtime?.runs.isRunning(s.runId))).toHaveLength(3);
    await Promise.all([a.done, b.done, c.done]);
    expect(created.sort()).toEqual(['base-model', 'base-model', 'swe-model']);
    for (const run of [a, b, c]) {
      const own = events.filter((e) => e.runId === run.runId);
      expect(own.map((e) => e.seq)).toEqual(own.map((_, i) => i + 1));
      expect(own.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    }
    expect(events.find((e) => e.runId === b.runId && e.type === 'run.started')).toMatchObject({
      model: 'swe-model',
    });
    expect(runtime.runs.get(c.runId)).toMatchObject({ sessionId: 'other', outcome: 'finished' });
    expect(runtime.runs.list()).toHaveLength(3);
    // The Docker client now loads with the SWE agent's first container (prewarmed here),
    // inside the test rather than at import: a loaded machine needs more than 5 s.
  }, 30_000);

  it('gives a snapshot mid-run that live events continue without gap or duplicate', async () => {
    runtime = createRuntime({
      home: home('[llm]\napi_key = "k-default-123"\n'),
      createLlm: (profile) => talker(profile.model, 4, 20),
    });
    const live: RunEvent[] = [];
    let snapshot: ReturnType<Runtime['runs']['snapshot']>;
    const handle = runtime.runs.start({ task: 'slow', agent: 'toolcall' });
    runtime.runs.onEvent((e) => {
      live.push(e);
      if (e.type === 'step.started' && e.step === 2 && !snapshot) {
        snapshot = runtime?.runs.snapshot(handle.runId);
      }
    });
    await handle.done;
    expect(snapshot?.isLive).toBe(true);
    const lastSeq = snapshot?.summary.lastSeq ?? 0;
    expect(lastSeq).toBe(snapshot?.events.at(-1)?.seq);
    const joined = [...(snapshot?.events ?? []), ...live.filter((e) => e.seq > lastSeq)];
    expect(joined.map((e) => e.seq)).toEqual(joined.map((_, i) => i + 1));
    const after = runtime.runs.snapshot(handle.runId);
    expect(after?.isLive).toBe(false);
    expect(after?.events).toEqual(joined);
    expect(runtime.runs.snapshot(handle.runId, lastSeq)?.events).toEqual(
      joined.filter((e) => e.seq > lastSeq),
    );
  });

  it('redacts an API key from every event and the history, wherever it shows up', async () => {
    const key = `sk-test-${randomUUID()}`;
    const dir = home(`[llm]\nmodel = "m"\napi_key = "${key}"\n`);
    runtime = createRuntime({
      home: dir,
      createLlm: (p) => talker(p.model, 2, 1, `leak ${p.apiKey}`),
    });
    const lines: string[] = [];
    runtime.runs.onEvent((e) => lines.push(JSON.stringify(e)));
    const handle = runtime.runs.start({ task: 'leak it', agent: 'toolcall' });
    await handle.done;
    const log = readFileSync(join(dir, 'runs', `${handle.runId}.jsonl`), 'utf8');
    expect(lines.join('\n')).not.toContain(key);
    expect(log).not.toContain(key);
    expect(log).toContain('leak [redacted]');
  });

  it('still writes run.started and run.finished when the run cannot be set up', async () => {
    runtime = createRuntime({ home: home('[agent.toolcall]\nllm = "missing"\n') });
    const handle = runtime.runs.start({ task: 'x', agent: 'toolcall' });
    const result = await handle.done;
    expect(result.outcome).toBe('error');
    const snapshot = runtime.runs.snapshot(handle.runId);
    expect(snapshot?.events.map((e) => e.type)).toEqual(['run.started', 'run.finished']);
    expect(snapshot?.summary.error).toMatch(/\[llm\.missing\]/);
  });

  it('marks responses that repeat earlier ones, so the summary counts them (the health line)', async () => {
    runtime = createRuntime({
      home: home('[llm]\napi_key = "k-default-123"\n'),
      // the same words and the same call three times: the second and third repeat the first
      createLlm: () =>
        new ScriptedLlm((_request, i) =>
          i < 3
            ? {
                content: 'Looking at the same thing again',
                toolCalls: [{ name: 'create_chat_completion', args: { response: 'same' } }],
              }
            : { content: 'done', toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
        ),
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const handle = runtime.runs.start({ task: 'repeat', agent: 'toolcall' });
    await handle.done;
    const marked = events.filter((e) => e.type === 'memory.appended' && e.duplicate);
    expect(marked.map((e) => e.type === 'memory.appended' && e.duplicate)).toEqual([
      'both',
      'both',
    ]);
    expect(runtime.runs.get(handle.runId)?.health).toMatchObject({ duplicates: 2 });
  });
});
