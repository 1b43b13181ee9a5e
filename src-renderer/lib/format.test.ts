import { describe, expect, it } from 'vitest';
import { argsSummary, formatArgs, formatDuration, headOf, ordinal } from './format';

describe('format', () => {
  it('formats durations', () => {
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(2500)).toBe('2.5 s');
    expect(formatDuration(125_000)).toBe('2 m 5 s');
  });
  it('pretty-prints arguments, also raw JSON strings, and keeps broken ones as they are', () => {
    expect(formatArgs({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatArgs('{"a":')).toBe('{"a":');
    expect(argsSummary({ command: 'ls\n-la' })).toBe('{"command":"ls\\n-la"}');
  });
  it('cuts a text to its first lines', () => {
    expect(headOf('a\nb\nc', 2, 100)).toEqual({ text: 'a\nb', isCut: true });
    expect(headOf('a\nb', 2, 100)).toEqual({ text: 'a\nb', isCut: false });
    expect(headOf('abcdef', 3, 3)).toEqual({ text: 'abc', isCut: true });
  });
  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
    ]);
  });
});
