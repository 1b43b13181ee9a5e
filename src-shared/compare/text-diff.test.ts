import { describe, expect, it } from 'vitest';
import { diffArgs, diffText, modeFor } from './text-diff';

const show = (parts: ReturnType<typeof diffText>) =>
  parts
    .map((p) =>
      p.kind === 'same' ? p.text : p.kind === 'added' ? `{+${p.text}+}` : `[-${p.text}-]`,
    )
    .join('');

describe('text differences', () => {
  it('diffs prose by words', () => {
    expect(show(diffText('I will read the file now.', 'I will edit the file now.', 'words'))).toBe(
      'I will [-read-]{+edit+} the file now.',
    );
  });

  it('diffs code and output by lines', () => {
    const a = 'import os\nprint(os.listdir())\nprint("done")\n';
    const b = 'import os\nprint(sorted(os.listdir()))\nprint("done")\n';
    expect(modeFor(a, b)).toBe('lines');
    expect(diffText(a, b, 'lines')).toEqual([
      { text: 'import os\n', kind: 'same' },
      { text: 'print(os.listdir())\n', kind: 'removed' },
      { text: 'print(sorted(os.listdir()))\n', kind: 'added' },
      { text: 'print("done")\n', kind: 'same' },
    ]);
  });

  it('shows huge texts as replaced rather than diffing them token by token', () => {
    const a = 'x'.repeat(1_500_000);
    const b = 'y'.repeat(1_500_000);
    expect(diffText(a, b, 'words').map((p) => p.kind)).toEqual(['removed', 'added']);
  });

  it('compares tool arguments one by one, as JSON', () => {
    const diffs = diffArgs(
      { code: 'print(1)', timeout: 5 },
      { code: 'print(2)', timeout: 5, cwd: '/w' },
    );
    expect(diffs).toEqual([
      { key: 'code', isChanged: true, a: 'print(1)', b: 'print(2)', mode: 'words' },
      { key: 'timeout', isChanged: false, a: '5', b: '5', mode: 'words' },
      { key: 'cwd', isChanged: true, b: '/w', mode: 'words' },
    ]);
    expect(diffArgs({ n: '1' }, { n: 1 })[0]!.isChanged).toBe(true);
    // a call only one side has: its arguments one by one
    expect(diffArgs(undefined, { code: 'a\nb' })).toEqual([
      { key: 'code', isChanged: true, b: 'a\nb', mode: 'lines' },
    ]);
    expect(diffArgs('{not json', { a: 1 })).toEqual([
      { key: '', isChanged: true, a: '{not json', b: '{"a":1}', mode: 'words' },
    ]);
  });
});
