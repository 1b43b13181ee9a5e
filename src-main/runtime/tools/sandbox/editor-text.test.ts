/**
 * The editor's path guard (reliability.md S13, lexical part; the symlink part runs in a
 * real container in sandbox-tools.int.test.ts) and its text operations.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_RESPONSE_CHARS,
  catN,
  clip,
  insertAfter,
  replaceUnique,
  selectRange,
  snippetAround,
} from './editor-text';
import { PathError, confinePath, isInside } from './path-guard';

describe('path guard (S13)', () => {
  const rejected: [string, RegExp][] = [
    ['../etc/passwd', /outside the workspace/],
    ['/workspace/../etc/passwd', /outside the workspace/],
    ['/etc/passwd', /outside the workspace/],
    ['/workspacex/file', /outside the workspace/],
    ['~', /"~" is not expanded/],
    ['~/notes.txt', /"~" is not expanded/],
    ['/workspace/a\0b', /NUL/],
    [`/workspace/${'a'.repeat(300)}`, /longer than 255 bytes/],
    [`/workspace/${'abc/'.repeat(1100)}`, /longer than 4096 bytes/],
    ['', /empty/],
  ];
  for (const [path, reason] of rejected) {
    it(`rejects ${JSON.stringify(path.slice(0, 40))}`, () => {
      expect(() => confinePath(path, '/workspace')).toThrow(PathError);
      expect(() => confinePath(path, '/workspace')).toThrow(reason);
    });
  }

  it('accepts the workspace, paths under it and relative paths (resolved against it)', () => {
    expect(confinePath('/workspace', '/workspace')).toBe('/workspace');
    expect(confinePath('/workspace/', '/workspace')).toBe('/workspace');
    expect(confinePath('/workspace/src/../a.py', '/workspace')).toBe('/workspace/a.py');
    expect(confinePath('notes/todo.md', '/workspace')).toBe('/workspace/notes/todo.md');
    expect(confinePath('  /workspace/x  ', '/workspace')).toBe('/workspace/x');
  });

  it('compares whole path segments', () => {
    expect(isInside('/workspace/a', '/workspace')).toBe(true);
    expect(isInside('/workspace2', '/workspace')).toBe(false);
    expect(isInside('/anything', '/')).toBe(true);
  });
});

describe('editor text operations', () => {
  const file = 'def f():\n\treturn 1\n\ndef g():\n\treturn 2\n';

  it('numbers lines like cat -n, without a phantom line after the final newline', () => {
    expect(catN('a\nb\n', '/workspace/x')).toBe(
      "Here's the result of running `cat -n` on /workspace/x:\n     1\ta\n     2\tb\n",
    );
  });

  it('selects a view range, with -1 meaning to the end, and explains bad ranges', () => {
    expect(selectRange(file, [2, 3])).toEqual({ lines: ['\treturn 1', ''], first: 2 });
    expect(selectRange(file, [4, -1])).toEqual({ lines: ['def g():', '\treturn 2'], first: 4 });
    expect(selectRange(file, [0, 2])).toMatchObject({
      error: expect.stringMatching(/first element/),
    });
    expect(selectRange(file, [2, 99])).toMatchObject({
      error: expect.stringMatching(/second element/),
    });
    expect(selectRange(file, [3, 2])).toMatchObject({
      error: expect.stringMatching(/larger or equal/),
    });
  });

  it('replaces a unique match exactly, keeping tabs elsewhere (the original expanded them)', () => {
    const result = replaceUnique(file, 'return 2', 'return 3', 'f.py');
    expect(result).toEqual({ text: 'def f():\n\treturn 1\n\ndef g():\n\treturn 3\n', line: 5 });
  });

  it('refuses zero or several matches and names the lines', () => {
    expect(replaceUnique(file, 'return 9', 'x', 'f.py')).toMatchObject({
      error: expect.stringMatching(/did not appear verbatim in f\.py/),
    });
    expect(replaceUnique(file, 'return', 'x', 'f.py')).toMatchObject({
      error: expect.stringMatching(/Multiple occurrences .* in lines \[2,5\]/),
    });
    expect(replaceUnique(file, '', 'x', 'f.py')).toMatchObject({ error: expect.any(String) });
  });

  it('inserts after a line, at the top with 0, and checks the range', () => {
    expect(insertAfter('a\nb\n', 1, 'x')).toEqual({ text: 'a\nx\nb\n' });
    expect(insertAfter('a\nb\n', 0, 'x\ny\n')).toEqual({ text: 'x\ny\na\nb\n' });
    expect(insertAfter('a\nb', 2, 'c')).toEqual({ text: 'a\nb\nc' });
    expect(insertAfter('a\n', 5, 'x')).toMatchObject({ error: expect.stringMatching(/\[0, 1\]/) });
  });

  it('shows a numbered snippet around an edit and clips long responses with a note', () => {
    const text = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n');
    const snippet = snippetAround(text, 10, 0, 'x');
    expect(snippet).toContain('     6\tl6');
    expect(snippet).toContain('    14\tl14');
    expect(snippet).not.toContain('l15');
    const long = clip('x'.repeat(MAX_RESPONSE_CHARS + 10));
    expect(long).toContain('<response clipped>');
    expect(long.length).toBeLessThan(MAX_RESPONSE_CHARS + 400);
  });
});
