import { describe, expect, it } from 'vitest';
import {
  compileArgsPattern,
  describePauseReason,
  formatBreakpoint,
  parseBreakpoint,
} from './debugger';

describe('breakpoint text form', () => {
  it.each([
    ['tool:bash', { kind: 'tool', tool: 'bash' }, 'tool:bash'],
    ['tool:bash:rm -rf', { kind: 'tool', tool: 'bash', argsPattern: 'rm -rf' }, 'tool:bash:rm -rf'],
    [
      'tool:bash:/^git\\s+push/i',
      { kind: 'tool', tool: 'bash', argsPattern: '/^git\\s+push/i' },
      'tool:bash:/^git\\s+push/i',
    ],
    [' stuck ', { kind: 'stuck' }, 'stuck'],
    ['tool_error', { kind: 'tool_error' }, 'tool_error'],
    ['MODEL_ERROR', { kind: 'model_error' }, 'model_error'],
    ['step:3', { kind: 'step', step: 3 }, 'step:3'],
    ['tokens:50k', { kind: 'tokens', limit: 50_000 }, 'tokens:50000'],
    ['tokens:1.5M', { kind: 'tokens', limit: 1_500_000 }, 'tokens:1500000'],
    ['cost:$0.50', { kind: 'cost', limitUsd: 0.5 }, 'cost:0.5'],
  ])('%s', (text, condition, canonical) => {
    expect(parseBreakpoint(text)).toEqual({ ok: true, condition });
    expect(formatBreakpoint(condition as never)).toBe(canonical);
  });

  it.each([
    ['', 'empty'],
    ['tool', 'name a tool'],
    ['tool:', 'name a tool'],
    ['tool:bash:', 'the argument pattern after the tool is empty'],
    ['tool:bash:/(/', 'not a valid regular expression'],
    ['stuck:2', 'stuck takes no value'],
    ['step:0', 'positive integer'],
    ['step:two', 'positive integer'],
    ['tokens:-5', 'positive whole number'],
    ['cost:free', 'positive amount in US dollars'],
    ['loop', 'unknown kind "loop"'],
  ])('refuses %j, saying why and what is allowed', (text, why) => {
    const parsed = parseBreakpoint(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toContain(why);
    expect(parsed.error).toContain('tool:NAME, tool:NAME:PATTERN, stuck, tool_error');
  });

  it('matches argument patterns as substrings, or as /regex/flags', () => {
    expect(compileArgsPattern('rm -rf')('sudo rm -rf /')).toBe(true);
    expect(compileArgsPattern('/^rm/')('sudo rm')).toBe(false);
    expect(compileArgsPattern('/^RM/i')('rm x')).toBe(true);
  });

  it('describes pause reasons in one line', () => {
    expect(
      describePauseReason({
        kind: 'breakpoint',
        breakpointId: 'bp-2',
        condition: 'tool:bash',
        detail: 'manus is about to run bash (call_1)',
      }),
    ).toBe('breakpoint bp-2 (tool:bash): manus is about to run bash (call_1)');
    expect(describePauseReason({ kind: 'approval', tools: ['bash', 'python_execute'] })).toBe(
      'approval needed before running bash, python_execute',
    );
  });
});
