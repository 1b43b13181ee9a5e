import { describe, expect, it } from 'vitest';
import { DuplicateLedger } from './duplicate-keys';

const call = (name: string, args: string) => ({
  id: `c-${Math.random()}`,
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('DuplicateLedger', () => {
  it('flags a response that repeats an earlier one of the same agent, by content or calls', () => {
    const ledger = new DuplicateLedger();
    expect(ledger.classify('manus', { content: 'Listing the files' })).toBeUndefined();
    expect(ledger.classify('manus', { content: '  Listing   the files ' })).toBe('content');
    expect(
      ledger.classify('manus', { content: '', tool_calls: [call('bash', '{"a":1,"b":2}')] }),
    ).toBeUndefined();
    // same call, keys in another order, no text: a repeat by its calls
    expect(
      ledger.classify('manus', { content: null, tool_calls: [call('bash', '{ "b": 2, "a": 1 }')] }),
    ).toBe('tool_calls');
    expect(
      ledger.classify('manus', {
        content: 'Listing the files',
        tool_calls: [call('bash', '{"a":1,"b":2}')],
      }),
    ).toBe('both');
    // another agent has its own history
    expect(ledger.classify('swe', { content: 'Listing the files' })).toBeUndefined();
    // empty responses repeat each other too
    expect(ledger.classify('swe', { content: null })).toBeUndefined();
    expect(ledger.classify('swe', { content: '' })).toBe('content');
  });

  it('a reply that only ends the run repeats nothing by its calls (a continuation ends as its run did)', () => {
    const ledger = new DuplicateLedger();
    const end = () => [call('terminate', '{"status":"success"}')];
    expect(ledger.classify('manus', { content: 'Done.', tool_calls: end() })).toBeUndefined();
    expect(ledger.classify('manus', { content: 'All done.', tool_calls: end() })).toBeUndefined();
    expect(ledger.classify('manus', { content: null, tool_calls: end() })).toBeUndefined();
    expect(ledger.classify('manus', { content: '', tool_calls: end() })).toBeUndefined();
    // its text still counts, and a terminate beside another call is judged as before
    expect(ledger.classify('manus', { content: 'Done.', tool_calls: end() })).toBe('content');
    const both = () => [call('bash', '{"a":1}'), call('terminate', '{}')];
    expect(ledger.classify('manus', { content: null, tool_calls: both() })).toBeUndefined();
    expect(ledger.classify('manus', { content: null, tool_calls: both() })).toBe('tool_calls');
  });
});
