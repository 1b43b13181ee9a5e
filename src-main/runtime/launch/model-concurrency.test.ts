/**
 * `[llm.NAME] max_concurrency` as runs meet it: three runs of one profile at once make
 * at most the configured number of model calls at a time, the waiting ones say
 * `llm.queued`; runs of another profile are not held back.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe('[llm.NAME] max_concurrency', () => {
  it('caps one profile’s calls across runs; the others queue, another profile does not', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-maxconc-'));
    writeFileSync(
      join(home, 'config.toml'),
      [
        '[llm]',
        'model = "base"',
        'api_key = "sk-test-maxconc-0000"',
        '[llm.capped]',
        'model = "capped"',
        'max_concurrency = 1',
        '[llm.free]',
        'model = "free"',
        '',
      ].join('\n'),
    );
    const live = new Map<string, number>();
    const most = new Map<string, number>();
    runtime = createRuntime({
      home,
      sweepAtStart: false,
      createLlm: (profile) =>
        new ScriptedLlm(
          () => {
            const now = (live.get(profile.model) ?? 0) + 1;
            live.set(profile.model, now);
            most.set(profile.model, Math.max(most.get(profile.model) ?? 0, now));
            setTimeout(() => live.set(profile.model, (live.get(profile.model) ?? 1) - 1), 100);
            return {
              delayMs: 100,
              toolCalls: [{ name: 'terminate', args: { status: 'success' } }],
            };
          },
          { model: profile.model },
        ),
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const start = (profile: string) =>
      runtime!.runs.start({ task: 't', agent: 'toolcall' }, { profile });
    const handles = [
      start('capped'),
      start('capped'),
      start('capped'),
      start('free'),
      start('free'),
    ];
    const results = await Promise.all(handles.map((h) => h.done));
    expect(results.map((r) => r.outcome)).toEqual(Array(5).fill('finished'));
    expect(most.get('capped')).toBe(1);
    expect(most.get('free')).toBe(2);
    const queued = events.filter((e) => e.type === 'llm.queued');
    expect(queued.length).toBeGreaterThanOrEqual(2);
    expect(queued.every((e) => e.type === 'llm.queued' && e.model === 'capped')).toBe(true);
    expect(queued[0]).toMatchObject({ reason: 'max_concurrency', capacity: 1 });
    // A call that queued says how long (its own time is the rest of durationMs, which
    // counts from before the queue): the waterfall tells the wait from the model's time.
    const waited = events.filter(
      (e) => e.type === 'llm.responded' && queued.some((q) => q.runId === e.runId),
    );
    expect(waited.length).toBeGreaterThanOrEqual(2);
    for (const e of waited) {
      if (e.type !== 'llm.responded') continue;
      expect(e.queuedMs).toBeGreaterThanOrEqual(50);
      // the scripted call itself takes 100 ms after the queue
      expect(e.durationMs).toBeGreaterThanOrEqual(e.queuedMs! + 90);
    }
    const unqueued = events.filter(
      (e) => e.type === 'llm.responded' && e.model === 'free' && e.queuedMs !== undefined,
    );
    expect(unqueued).toEqual([]);
  });
});
