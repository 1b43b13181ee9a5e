import { describe, expect, it } from 'vitest';
import { agentVersionsOf, runMatchesAgent } from './agent-filter';

describe('runMatchesAgent', () => {
  it('NAME takes every version of NAME, NAME@V only that version', () => {
    const v1 = { agent: 'mine', agentVersion: 1 };
    const v2 = { agent: 'mine', agentVersion: 2 };
    const manus = { agent: 'manus' };
    expect([v1, v2, manus].filter((r) => runMatchesAgent(r, 'mine'))).toEqual([v1, v2]);
    expect([v1, v2, manus].filter((r) => runMatchesAgent(r, 'mine@2'))).toEqual([v2]);
    expect([v1, v2, manus].filter((r) => runMatchesAgent(r, 'manus'))).toEqual([manus]);
    expect(runMatchesAgent(manus, 'manus@1')).toBe(false);
  });

  it('lists the versions each agent ran with', () => {
    const versions = agentVersionsOf([
      { agent: 'mine', agentVersion: 3 },
      { agent: 'mine', agentVersion: 1 },
      { agent: 'mine', agentVersion: 3 },
      { agent: 'manus' },
    ]);
    expect([...versions]).toEqual([['mine', [1, 3]]]);
  });
});
