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
});
