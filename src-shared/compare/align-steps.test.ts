import { describe, expect, it } from 'vitest';
import { alignSteps, alignWith, type AlignOptions } from './align';
import { headOf, headView, type StepHead } from './step-head';
import * as reference from './testing/align-reference';
import type { StepCall, StepDigest, StepKind } from './types';

/** mulberry32: the same runs on every machine */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

function digest(kind: StepKind, step: number, agent: string): StepDigest {
  return {
    kind,
    step,
    agent,
    seq: step,
    ts: step,
    messages: [],
    reply: '',
    calls: [],
    stuck: [],
    model: 'm',
    tokens: { prompt: 0, completion: 0 },
    latencyMs: 0,
    durationMs: null,
    retries: 0,
  };
}

/**
 * A step drawn from small pools, so that runs repeat steps (no unique anchors), share
 * signatures with other field names (an empty reply, a stuck note: the field-Map path),
 * and differ in one field or in several.
 */
function randomStep(r: Random, step: number): StepDigest {
  const d = digest(r() < 0.1 ? 'interlude' : 'step', step, pick(r, ['manus', 'manus', 'helper']));
  if (r() < 0.3) d.messages.push({ role: 'user', text: pick(r, ['go on', 'try again']) });
  d.reply = pick(r, ['', 'I look.', 'I list the files.', 'Let me try.', `Step ${step % 7}`]);
  const calls = pick(r, [0, 1, 1, 2]);
  for (let k = 0; k < calls; k++) {
    const call: StepCall = {
      name: pick(r, ['bash', 'bash', 'python_execute']),
      args: pick(r, [{ command: 'ls' }, { command: 'make' }, 'raw', { code: 'print(1)' }]),
      status: pick(r, ['ok', 'ok', 'error'] as const),
      output: pick(r, ['', 'a.py', 'b.py', 'error: no such file']),
      durationMs: 1,
    };
    if (call.status === 'error' && r() < 0.5) call.exitCode = 1;
    d.calls.push(call);
  }
  if (r() < 0.1) d.stuck.push('content');
  return d;
}

function randomRun(r: Random, steps: number): StepDigest[] {
  const start = digest('start', 0, 'manus');
  start.messages.push({ role: 'user', text: 'the task' });
  const run = [start];
  for (let i = 1; i <= steps; i++) run.push(randomStep(r, i));
  const end = digest('end', steps, 'manus');
  end.outcome = pick(r, ['finished', 'max_steps']);
  return [...run, end];
}

/** B: A with steps dropped, inserted, replaced and edited in one field. */
function edited(r: Random, a: StepDigest[], rate: number): StepDigest[] {
  const out: StepDigest[] = [a[0]!];
  for (const step of a.slice(1, -1)) {
    const x = r();
    if (x < rate) continue;
    if (x < 2 * rate) out.push(randomStep(r, step.step));
    else if (x < 3 * rate) out.push({ ...step, reply: `${step.reply} (reworded)` });
    else if (x < 4 * rate) out.push(step, randomStep(r, step.step));
    else out.push(step);
  }
  const end = a.at(-1)!;
  return [...out, r() < 0.2 ? { ...end, outcome: 'error' } : end];
}

/** the reference's view of a head: a Map of the hashes per step, as before */
const referenceHeadView: reference.StepView<StepHead> = (head) => ({
  fields: new Map(head.fields),
  signature: head.signature,
});

describe('the alignment on typed arrays (issue 27)', () => {
  it('gives exactly the rows of the alignment it replaced, on random runs', () => {
    let changed = 0;
    let withFields = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const a = randomRun(r, 5 + Math.floor(r() * 60));
      const b = edited(r, a, pick(r, [0.02, 0.1, 0.3]));
      const options: AlignOptions = pick(r, [
        {},
        { cellBudget: 200 + Math.floor(r() * 800) },
        { sharedPrefix: Math.floor(r() * 6) },
      ]);
      const expected = reference.alignSteps(a, b, options);
      expect(alignSteps(a, b, options), `seed ${seed}, digests`).toEqual(expected);
      const headsA = a.map(headOf);
      const headsB = b.map(headOf);
      const fromHeads = alignWith(headsA, headsB, headView, options);
      expect(fromHeads, `seed ${seed}, heads`).toEqual(
        reference.alignWith(headsA, headsB, referenceHeadView, options),
      );
      changed += expected.filter((row) => row.status === 'changed').length;
      withFields += expected.filter((row) => (row.fields?.length ?? 0) > 1).length;
    }
    // the runs exercise what the rows can say, not only identical pairs
    expect(changed).toBeGreaterThan(1_000);
    expect(withFields).toBeGreaterThan(300);
  });

  it('pairs steps whose field names differ under one signature as before (field Maps)', () => {
    const a = randomRun(random(7), 3);
    const b = a.map((step) => ({ ...step }));
    b[1] = { ...b[1]!, reply: '', stuck: ['tool_calls'] };
    b[2] = { ...b[2]!, reply: b[2]!.reply ? '' : 'A reply now.' };
    const rows = alignSteps(a, b);
    expect(rows).toEqual(reference.alignSteps(a, b));
    expect(rows[1]).toMatchObject({ status: 'changed', a: 1, b: 1 });
    expect(rows[1]!.fields).toEqual(expect.arrayContaining(['stuck']));
  });
});
