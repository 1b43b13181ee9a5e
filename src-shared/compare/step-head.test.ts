import { describe, expect, it } from 'vitest';
import { alignSteps } from './align';
import { diffHeads, digestRun, headRun } from './diff-runs';
import { hashText, headOf } from './step-head';
import { stepFields } from './step-fields';
import { history, plainStep, type StepSpec } from './testing/history';

const steps = (n: number): StepSpec[] => Array.from({ length: n }, (_, i) => plainStep(i + 1));

describe('step heads', () => {
  it('hash equal texts equally and different texts (even of one length) differently', () => {
    expect(hashText('ls -la')).toBe(hashText('ls -la'));
    expect(hashText('ls -la')).not.toBe(hashText('ls -lb'));
    expect(hashText('ab')).not.toBe(hashText('ba'));
    expect(hashText('')).not.toBe(hashText(' '));
    const seen = new Set(Array.from({ length: 20_000 }, (_, i) => hashText(`file_${i}.py`)));
    expect(seen.size).toBe(20_000);
  });

  it('keep every field name and no text, only its hash', () => {
    const [, step] = digestRun({ events: history('a', steps(1)) }).steps;
    const head = headOf(step!);
    expect(head.fields.map(([name]) => name)).toEqual([...stepFields(step!).keys()]);
    expect(JSON.stringify(head)).not.toContain(step!.reply);
    expect(head).not.toHaveProperty('reply');
    expect(head.calls).toEqual(step!.calls.map((c) => ({ name: c.name, status: c.status })));
  });

  it('align two runs exactly as their digests do: the same rows and the same changed fields', () => {
    const a = steps(30);
    const b = steps(30);
    b.splice(10, 0, { reply: 'An extra look first.', calls: [{ name: 'bash', args: 'ls' }] });
    b[3] = { ...b[3]!, reply: 'Another idea.' };
    b[20] = { ...b[20]!, calls: [{ name: 'python_execute', args: { code: 'print(1)' } }] };
    b.splice(25, 2);
    const runA = digestRun({ events: history('run-a', a) });
    const runB = digestRun({ events: history('run-b', b, { startTs: 1_800_000_000_000 }) });
    const fromHeads = diffHeads(headRun(runA), headRun(runB));
    expect(fromHeads.rows).toEqual(alignSteps(runA.steps, runB.steps));
    expect(fromHeads.rows.some((r) => r.status === 'changed')).toBe(true);
    expect(fromHeads.rows.some((r) => r.status === 'only-b')).toBe(true);
    expect(fromHeads.rows.some((r) => r.status === 'only-a')).toBe(true);
    // each step named by number only
    expect(fromHeads.stepsB[11]).toEqual({ kind: 'step', step: 11, agent: runB.steps[11]!.agent });
  });
});
