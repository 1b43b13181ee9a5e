import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readExperimentFile } from './experiment-file';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'wb-exp-file-')), 'e.toml');
  writeFileSync(path, text);
  return path;
}

const variants =
  '[[variants]]\nname = "A"\nagent = "swe"\nprofile = "a"\n[[variants]]\nname = "B"\nagent = "coder@3"\n';

describe('experiment files', () => {
  it('reads the dataset beside the file, variants (agent specs passed through) and scorers', () => {
    const path = file(
      `name = "n"\ndataset = "d/items.jsonl"\nrepeats = 3\nconcurrency = 2\n${variants}` +
        '[[scorers]]\nname = "check"\nkind = "shell"\n' +
        '[[scorers]]\nname = "json"\nkind = "answer"\nmatch = "json_schema"\nschema = { type = "object", required = ["a"] }\n' +
        '[[scorers]]\nname = "j"\nkind = "judge"\nprofile = "judge"\nrubric = "r"\nthreshold = 0.7\n' +
        '[[scorers]]\nname = "t"\nkind = "trajectory"\nmetric = "tool_errors"\nmax = 0\n',
    );
    const spec = readExperimentFile(path);
    expect(spec).toMatchObject({
      name: 'n',
      dataset: join(path, '..', 'd', 'items.jsonl'),
      repeats: 3,
      concurrency: 2,
      variants: [
        { name: 'A', agent: 'swe', profile: 'a' },
        { name: 'B', agent: 'coder@3', profile: null },
      ],
      scorers: [
        { name: 'check', kind: 'shell', command: '' },
        {
          name: 'json',
          kind: 'answer',
          match: 'json_schema',
          schema: { type: 'object', required: ['a'] },
        },
        { name: 'j', kind: 'judge', profile: 'judge', rubric: 'r', threshold: 0.7 },
        { name: 't', kind: 'trajectory', metric: 'tool_errors', max: 0 },
      ],
    });
  });

  it('says which key is wrong and what to write', () => {
    const cases: [string, RegExp][] = [
      ['dataset = 1', /dataset must name the dataset file, e\.g\. dataset = "items\.jsonl"/],
      ['dataset = "d"\nrepets = 3', /repets is not a key of an experiment/],
      ['dataset = "d"\nrepeats = 0', /repeats must be a whole number from 1 to 100/],
      [
        'dataset = "d"\n[[scorers]]\nname="s"\nkind="shell"',
        /variants are missing: add \[\[variants\]\]/,
      ],
      [`dataset = "d"\n${variants}`, /scorers are missing/],
      [
        `dataset = "d"\n${variants}[[scorers]]\nname="s"\nkind="vibes"`,
        /scorers\[1\]\.kind must be one of shell, answer, file, trajectory, judge/,
      ],
      [
        `dataset = "d"\n${variants}[[scorers]]\nname="s"\nkind="judge"\nprofile="j"`,
        /scorers\[1\]\.rubric must be a text/,
      ],
      [
        `dataset = "d"\n${variants}[[scorers]]\nname="s"\nkind="file"\npath="x"\nequal="y"`,
        /scorers\[1\]\.equal is not a key here \(keys: name, kind, threshold, path, equals\)/,
      ],
      [
        `dataset = "d"\n[[variants]]\nname="A"\nagent="../x"\n[[scorers]]\nname="s"\nkind="shell"`,
        /variants\[1\]\.agent "\.\.\/x" is not an agent name or name@version/,
      ],
      ['dataset = "d"\n[[variants]\n', /line 2 is not TOML/],
    ];
    for (const [text, message] of cases)
      expect(() => readExperimentFile(file(text)), text).toThrow(message);
  });
});
