/**
 * Reliability L1 (malformed tool arguments) and L3 (tool_call_id pairing), in runs
 * against the scripted server, which answers OpenAI's 400 to any request whose tool
 * messages do not pair with the calls before them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ScriptedServerReply } from '../llm/testing/scripted-openai-server';
import { reply } from '../llm/testing/scripted-replies';
import { ok, type Tool } from '../tools/tool';
import { parseArguments } from './tool-arguments';
import { startHarness, type Harness } from './testing/agent-harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** Arguments for `echo` (which needs {text: string}) that must all be refused. */
const MALFORMED: [string, string][] = [
  ['truncated', '{"text": "hel'],
  ['trailing comma', '{"text": "a",}'],
  ['single quotes', "{'text': 'a'}"],
  ['empty string', ''],
  ['null', 'null'],
  ['array', '["a"]'],
  ['double-encoded', JSON.stringify(JSON.stringify({ text: 'a' }))],
  ['1 MB', `{"text": "${'x'.repeat(1024 * 1024)}"}`],
  ['lone surrogate', '{"text": "\\ud800 alone"}'],
  ['wrong type', '{"text": 42}'],
  ['missing required', '{}'],
  ['fenced json', '```json\n{"text": "a"}\n```'],
  ['bare number', '42'],
  ['bare word', 'hello'],
  ['unknown extra key', '{"text": "a", "extra": 1}'],
  ['unquoted keys', '{text: "a"}'],
  ['NaN', '{"text": NaN}'],
  ['comment', '{"text": "a" /* note */}'],
  ['two objects', '{"text": "a"}{"text": "b"}'],
  ['python None', '{"text": None}'],
  ['boolean', 'true'],
  ['nested object', '{"text": {"value": "a"}}'],
  ['null value', '{"text": null}'],
  ['xml', '<text>a</text>'],
  ['byte order mark', '\ufeff{"text": "a"}'],
  ['extra brace', '{"text": "a"}}'],
];

describe('L1: malformed tool arguments', () => {
  it(`each of ${MALFORMED.length} malformed argument strings gives a tool error, runs nothing, and the run goes on`, async () => {
    expect(MALFORMED.length).toBeGreaterThanOrEqual(20);
    const script: ScriptedServerReply[] = [
      ...MALFORMED.map(([, args]) => ({
        content: null,
        toolCalls: [{ name: 'echo', arguments: args }],
      })),
      { content: null, toolCalls: [{ name: 'echo', arguments: { text: 'valid at last' } }] },
      reply.terminate(),
    ];
    h = await startHarness(script, { settings: { maxSteps: 100, duplicateThreshold: 100 } });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', steps: MALFORMED.length + 2 });
    expect(h.echoed).toEqual(['valid at last']);
    const finished = h.of('tool.finished');
    MALFORMED.forEach(([label], i) => {
      expect(finished[i]!.ok, label).toBe(false);
      expect(finished[i]!.error, label).toMatch(/could not be used|Invalid arguments for echo/);
    });
    // The tool messages tell the model what to fix.
    const observations = h.agent.memory.messages.filter((m) => m.role === 'tool');
    expect(observations[0]!.content).toMatch(/^Error: .*invalid JSON \(they look cut off\)/);
    expect(observations[7]!.content).toMatch(/too large/);
    expect(observations[8]!.content).toMatch(/lone UTF-16 surrogate/);
    expect(observations[11]!.content).toMatch(/markdown code fence/);
    // a megabyte is not carried in memory and resent with every request
    expect(h.server.answered.at(-1)!.body['messages']).toBeDefined();
    expect(JSON.stringify(h.server.answered.at(-1)!.messages).length).toBeLessThan(100_000);
    // The megabyte of arguments streams as 65,536 chunks through a server in this same
    // process: several seconds on a loaded machine, so the default 5 s is not enough.
  }, 30_000);

  it('parseArguments accepts a plain object and "" as no arguments', () => {
    expect(parseArguments('{"a": [1, {"b": "c"}]}')).toEqual({
      ok: true,
      value: { a: [1, { b: 'c' }] },
    });
    expect(parseArguments('  ')).toEqual({ ok: true, value: {} });
    expect(parseArguments('{"emoji": "\\ud83d\\ude00"}')).toMatchObject({ ok: true });
  });
});

describe('L3: tool_call_id pairing under everything at once', () => {
  /** Small deterministic PRNG so a failing trial can be replayed from its seed. */
  function prng(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }

  it('every call gets exactly one tool message before the next request, across 40 random runs', async () => {
    const slow: Tool<{ ms: number }> = {
      name: 'slow',
      description: 'waits',
      schema: z.object({ ms: z.number() }),
      execute: ({ ms }, { signal }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve(ok('slept')), ms);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        }),
    };
    const thrower: Tool<Record<string, never>> = {
      name: 'thrower',
      description: 'throws',
      schema: z.object({}),
      execute: async () => {
        throw new Error('boom');
      },
    };
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(seed);
      const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
      const callKinds = [
        () => ({ name: 'echo', arguments: { text: `v${random()}` } }),
        () => ({ name: 'echo', arguments: pick(MALFORMED.slice(0, 7))[1] }),
        () => ({ name: pick(['nope', 'ghost']), arguments: {} }),
        () => ({ name: 'terminate', arguments: { status: 'success' } }),
        () => ({ name: 'slow', arguments: { ms: 30 } }),
        () => ({ name: 'thrower', arguments: {} }),
      ];
      const script = (): ScriptedServerReply => {
        const r = random();
        if (r < 0.1) return reply.text('just talking');
        if (r < 0.15)
          return { content: null, toolCalls: [pick(callKinds)()], finishReason: 'length' };
        const n = 1 + Math.floor(random() * 4);
        return { content: null, toolCalls: Array.from({ length: n }, () => pick(callKinds)()) };
      };
      h = await startHarness(script, { tools: [slow, thrower], settings: { maxSteps: 8 } });
      const controller = new AbortController();
      if (random() < 0.3) setTimeout(() => controller.abort(), Math.floor(random() * 150));
      const result = await h.run('random task', controller.signal);
      const rejected = h.server.requests.filter((r) => r.rejected);
      expect(
        rejected.map((r) => r.rejected),
        `seed ${seed}`,
      ).toEqual([]);
      expect(result.error ?? '', `seed ${seed}`).not.toMatch(/tool_call|preceeding/);
      await h.close();
      h = null;
    }
  });
});
