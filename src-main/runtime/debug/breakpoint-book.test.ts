/** Tool breakpoints with argument patterns: raw text, string values, never keys. */
import { describe, expect, it } from 'vitest';
import { parseBreakpoint } from '@shared/domain/debugger';
import { BreakpointBook } from './breakpoint-book';

function firesOn(spec: string, args: string): boolean {
  const book = new BreakpointBook();
  const parsed = parseBreakpoint(spec);
  if (!parsed.ok) throw new Error(parsed.error);
  book.add(parsed.condition, 'run');
  const call = { id: 'c1', type: 'function' as const, function: { name: 'bash', arguments: args } };
  return (
    book.reasonsAt({
      agent: 'a',
      point: 'before_tools',
      signal: new AbortController().signal,
      calls: [call],
    }).length > 0
  );
}

describe('argument patterns', () => {
  it.each([
    ['tool:bash:rm -rf', '{"command":"sudo rm -rf /"}', true],
    ['tool:bash:rm -rf', '{"command":"ls"}', false],
    ['tool:bash:/^rm\\s/', '{"command":"rm x"}', true],
    ['tool:bash:/^rm\\s/', '{"command":"echo rm x"}', false],
    // keys are not values
    ['tool:bash:/^command$/', '{"command":"ls"}', false],
    // escaped values are decoded before matching
    ['tool:bash:/^rm/m', '{"command":"cd /tmp\\nrm x"}', true],
    ['tool:bash:say "hi"', '{"command":"echo say \\"hi\\""}', true],
    // nested values and arrays
    ['tool:bash:/^deep$/', '{"a":{"b":["x","deep"]}}', true],
    // arguments that do not parse: the raw text is still tried
    ['tool:bash:rm', '{"command": "rm', true],
  ])('%s on %s: %s', (spec, args, expected) => {
    expect(firesOn(spec, args)).toBe(expected);
  });
});
