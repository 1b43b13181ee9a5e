import { describe, expect, it } from 'vitest';
import { datasetLine, parseDatasetLines } from './dataset';

describe('dataset lines', () => {
  it('reads items with their ids (or line-N), skipping blank lines, and writes them back', () => {
    const text = [
      '{"id": "add", "task": "2+2?", "expected": "4", "metadata": {"topic": "math"}}',
      '',
      '{"task": "file:long.md", "workspace": "ws/a", "check": "test -f x"}',
    ].join('\n');
    const { items, problems } = parseDatasetLines(text);
    expect(problems).toEqual([]);
    expect(items).toEqual([
      { id: 'add', task: '2+2?', expected: '4', metadata: { topic: 'math' } },
      { id: 'line-3', task: 'file:long.md', workspace: 'ws/a', check: 'test -f x' },
    ]);
    expect(parseDatasetLines(items.map(datasetLine).join('\n')).items).toEqual(items);
  });

  it('says every problem with its line, key and what to do', () => {
    const text = [
      '{"task": "ok", "id": "a"}',
      'not json',
      '{"task": "", "colour": 1}',
      '{"task": "dup", "id": "a"}',
      '[1]',
      '{"task": "x", "metadata": [1], "expected": 4}',
    ].join('\n');
    const { items, problems } = parseDatasetLines(text);
    expect(items.map((i) => i.id)).toEqual(['a']);
    expect(problems).toEqual([
      { line: 2, message: expect.stringMatching(/^is not JSON .*one object a line/) },
      {
        line: 3,
        key: 'colour',
        message: expect.stringContaining('unknown key "colour" (keys: id, task'),
      },
      {
        line: 3,
        key: 'task',
        message: expect.stringContaining('"task" must be a non-empty string'),
      },
      { line: 4, key: 'id', message: 'the id "a" is already used on line 1; ids must be unique' },
      { line: 5, message: expect.stringContaining('is not an object') },
      { line: 6, key: 'expected', message: '"expected" must be a string' },
      {
        line: 6,
        key: 'metadata',
        message: expect.stringContaining('"metadata" must be an object'),
      },
    ]);
  });
});
