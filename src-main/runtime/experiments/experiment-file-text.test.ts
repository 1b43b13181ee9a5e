import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScorerSpec } from '@shared/experiments/scorer-types';
import { readExperimentFile } from './experiment-file';
import { experimentFileText } from './experiment-file-text';

describe('an experiment started from the GUI, as an experiment file', () => {
  it('reads back through the same reader as `experiment run FILE`, every scorer kind', () => {
    const scorers: ScorerSpec[] = [
      { name: 'check', kind: 'shell', command: '' },
      { name: 'cmd', kind: 'shell', command: 'pytest -q', threshold: 1 },
      {
        name: 'json',
        kind: 'answer',
        match: 'json_schema',
        schema: { type: 'object', required: ['a'] },
      },
      { name: 'num', kind: 'answer', match: 'numeric', tolerance: 0.5, expected: '42' },
      { name: 'case', kind: 'answer', match: 'exact', ignoreCase: false },
      { name: 'f', kind: 'file', path: 'out.txt', equals: 'hi' },
      { name: 't', kind: 'trajectory', metric: 'tool_errors', max: 0 },
      { name: 'j', kind: 'judge', profile: 'judge', rubric: 'say "1"\nwhen right', threshold: 0.7 },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'wb-exp-text-'));
    const path = join(dir, 'e.toml');
    const dataset = join(dir, 'elsewhere', 'd.jsonl');
    writeFileSync(
      path,
      experimentFileText(
        {
          name: 'from the GUI',
          dataset: 'd',
          variants: [
            { name: 'A', agent: 'swe' },
            { name: 'B', agent: 'coder@3', profile: 'fast' },
          ],
          repeats: 3,
          scorers,
          concurrency: 2,
          maxSteps: 7,
        },
        dataset,
      ),
    );
    expect(readExperimentFile(path)).toEqual({
      path,
      name: 'from the GUI',
      dataset,
      variants: [
        { name: 'A', agent: 'swe', profile: null },
        { name: 'B', agent: 'coder@3', profile: 'fast' },
      ],
      repeats: 3,
      concurrency: 2,
      maxSteps: 7,
      scorers,
    });
  });
});
