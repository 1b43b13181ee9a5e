/**
 * `listAgents` with a host's cache (the Agents page lists again and again): an unchanged
 * file is not read again, a changed one is, a removed one leaves the list.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsDir, listAgents, type AgentListCache } from './agent-store';
import { starterDefinitionText } from './starter-definition';

describe('listAgents with a cache', () => {
  it('reads a file again only when it changed, and forgets a removed one', () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-agent-list-'));
    mkdirSync(agentsDir(home), { recursive: true });
    const file = (name: string) => join(agentsDir(home), `${name}.toml`);
    writeFileSync(file('one'), starterDefinitionText('one'));
    writeFileSync(file('two'), starterDefinitionText('two'));
    const context = { mcpServers: [], profiles: [] };
    const cache: AgentListCache = new Map();
    const first = listAgents(home, context, cache).slice(5);
    expect(first.map((e) => `${e.name} v${e.version}`)).toEqual(['one v1', 'two v1']);
    // the same entries, not read again
    const again = listAgents(home, context, cache).slice(5);
    expect(again[0]).toBe(first[0]);
    writeFileSync(
      file('one'),
      starterDefinitionText('one').replace('What this agent is for.', 'Changed.'),
    );
    rmSync(file('two'));
    const changed = listAgents(home, context, cache).slice(5);
    expect(changed.map((e) => `${e.name} v${e.version} ${e.description}`)).toEqual([
      'one v2 Changed.',
    ]);
    expect([...cache.keys()]).toEqual([file('one')]);
    // another config (a profile added or removed) checks every file again
    const other = listAgents(home, { mcpServers: ['files'], profiles: [] }, cache).slice(5);
    expect(other[0]).not.toBe(changed[0]);
  });
});
