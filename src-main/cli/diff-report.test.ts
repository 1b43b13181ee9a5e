import { describe, expect, it } from 'vitest';
import { diffRuns } from '@shared/compare/diff-runs';
import { history, plainStep, type StepSpec } from '@shared/compare/testing/history';
import { diffJson, formatRunDiff } from './diff-report';

const plain = { color: false, maxLines: 40 };

function pair(changeB: (steps: StepSpec[]) => void) {
  const a = [1, 2, 3, 4].map(plainStep);
  const b = [1, 2, 3, 4].map(plainStep);
  changeB(b);
  return diffRuns(
    {
      events: history('run-a', a, { settings: { 'llm.model': 'model-a', 'agent.max_steps': 20 } }),
    },
    {
      events: history('run-b', b, { settings: { 'llm.model': 'model-b', 'agent.max_steps': 20 } }),
    },
  );
}

describe('the runs diff report', () => {
  it('prints the summary, the settings that differ and each difference with word and line diffs', () => {
    const diff = pair((b) => {
      b[2] = {
        reply: 'Step 3: I list the files of module three.',
        calls: [
          { name: 'bash', args: { command: 'ls -la module_3' }, output: 'file_3.py\nREADME.md' },
        ],
      };
    });
    const text = formatRunDiff(diff, plain);
    expect(text).toMatch(/^steps\s+4\s+4\s+0$/m);
    expect(text).toMatch(/^ {2}llm\.model\s+model-a\s+→\s+model-b$/m);
    expect(text).not.toContain('agent.max_steps');
    expect(text).toContain('the first divergence is at step 3');
    expect(text).toContain('~ step 3');
    expect(text).toContain('module [-3-]{+three+}.');
    expect(text).toContain('bash arguments · command:');
    expect(text).toContain('ls {+-la +}module_3');
    expect(text).toMatch(/ {8}file_3\.py\n {6}\+ README\.md/);
  });

  it('says when runs are equivalent', () => {
    const text = formatRunDiff(
      pair(() => undefined),
      plain,
    );
    expect(text).toContain('The runs are equivalent: 6 aligned steps, no difference.');
  });

  it('gives scripts the first divergence and the differing rows in --json', () => {
    const diff = pair((b) => b.splice(1, 1));
    const json = diffJson(diff);
    expect(json.isEquivalent).toBe(false);
    expect(json.firstDifference).toMatchObject({
      label: 'only in A: step 2',
      stepA: 2,
      stepB: null,
    });
    expect(json.rows).toHaveLength(1);
    expect(json.rows[0]).toMatchObject({ status: 'only-a', b: null, a: { step: 2, kind: 'step' } });
  });

  it('names a renamed run by its title, with its task beneath', () => {
    const events = history('run-a', [plainStep(1)], { task: 'Fix the failing test' });
    const diff = diffRuns(
      { events, title: 'Baseline on gpt-4o' },
      { events: history('run-b', [plainStep(1)]) },
    );
    const text = formatRunDiff(diff, plain);
    expect(text).toMatch(/^A {2}run-a .* · Baseline on gpt-4o\n {3}task: Fix the failing test$/m);
    // a run without a title is named by its task, as before
    expect(text).toMatch(/^B {2}run-b .* · Fix the failing test$/m);
    expect(diffJson(diff).a.title).toBe('Baseline on gpt-4o');
  });

  it('compares a fork and its parent after the fork step, and shows the shared steps once', () => {
    const five = [1, 2, 3, 4, 5].map((n) => ({
      ...plainStep(n),
      tokens: { prompt: 100, completion: 10 },
    }));
    const parent = history('parent', five);
    const fork = history('fork', five.slice(2), {
      firstStep: 3,
      startExtras: { forkOf: { runId: 'parent', step: 2 } },
    });
    const text = formatRunDiff(diffRuns({ events: parent }, { events: fork }), plain);
    expect(text).toContain('B is a fork of A at step 2: the figures compare what each run did');
    expect(text).toMatch(/^after step 2\s+A \(parent\)\s+B \(fork\)\s+B − A$/m);
    // like with like: 3 steps of 110 tokens each on both sides, not 550 against 330
    expect(text).toMatch(/^tokens\s+330\s+330\s+0$/m);
    expect(text).toMatch(/^steps\s+3\s+3\s+0$/m);
    expect(text).toMatch(
      /^steps 1–2 \(shared\)\s+2 steps, 220 tokens, run by the parent\s+inherited/m,
    );
  });
});
