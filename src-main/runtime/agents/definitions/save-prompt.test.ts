/**
 * The playground's "Save into the agent": a user agent's prompt becomes its next version
 * (its file's other edits kept), a built-in agent or a file's agent only into a new user
 * agent, and a bad name or template is refused with nothing written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listVersions, recordedDefinition, resolveDefinition } from './agent-store';
import { savePromptIntoAgent } from './save-prompt';

const ctx = { mcpServers: [], profiles: [] };

function homeWithAgent(): string {
  const home = mkdtempSync(join(tmpdir(), 'wb-save-prompt-'));
  mkdirSync(join(home, 'agents'));
  writeFileSync(
    join(home, 'agents', 'mine.toml'),
    'name = "mine"\ntools = ["terminate"]\nsystem_prompt = "Old prompt."\n',
  );
  return home;
}

describe('savePromptIntoAgent', () => {
  it("saves a user agent's prompt as its next version, keeping the file's later edits", () => {
    const home = homeWithAgent();
    const ran = recordedDefinition(resolveDefinition('mine', home, ctx));
    expect(ran.version).toBe(1);
    // edited after the run: the description stays
    writeFileSync(
      join(home, 'agents', 'mine.toml'),
      'name = "mine"\ndescription = "later"\ntools = ["terminate"]\nsystem_prompt = "Old prompt."\n',
    );
    const saved = savePromptIntoAgent(home, ctx, ran, 'New prompt for {{agent_name}}.');
    expect(saved).toMatchObject({ name: 'mine', isDuplicate: false, version: 3 });
    const now = resolveDefinition('mine', home, ctx);
    expect(now.data).toMatchObject({
      system_prompt: 'New prompt for {{agent_name}}.',
      description: 'later',
    });
    expect(now.version).toBe(3);
    expect(listVersions(home, 'mine').map((v) => v.version)).toEqual([1, 2, 3]);
  });

  it('duplicates a built-in agent into a user agent, and never writes the built-in', () => {
    const home = homeWithAgent();
    const manus = recordedDefinition(resolveDefinition('manus', home, ctx));
    expect(() => savePromptIntoAgent(home, ctx, manus, 'Mine.')).toThrow(
      /built-in agent and cannot be changed: give a name for your copy/,
    );
    expect(() => savePromptIntoAgent(home, ctx, manus, 'Mine.', 'swe')).toThrow(
      /built-in agent's name/,
    );
    expect(() => savePromptIntoAgent(home, ctx, manus, 'Mine.', 'mine')).toThrow(/exists/);
    expect(() => savePromptIntoAgent(home, ctx, manus, 'Mine.', '../x')).toThrow(/agent name/);
    const saved = savePromptIntoAgent(home, ctx, manus, 'My Manus at {{work_dir}}.', 'my-manus');
    expect(saved).toMatchObject({ name: 'my-manus', version: 1, isDuplicate: true });
    const copy = resolveDefinition('my-manus', home, ctx).data;
    expect(copy.system_prompt).toBe('My Manus at {{work_dir}}.');
    expect(copy.tools).toEqual(manus.definition.tools);
  });

  it('refuses an unknown template variable and writes nothing', () => {
    const home = homeWithAgent();
    const ran = recordedDefinition(resolveDefinition('mine', home, ctx));
    expect(() => savePromptIntoAgent(home, ctx, ran, 'Hi {{nobody}}')).toThrow(
      /unknown template variable \{\{nobody\}\}/,
    );
    expect(readFileSync(join(home, 'agents', 'mine.toml'), 'utf8')).toContain('Old prompt.');
    expect(listVersions(home, 'mine')).toHaveLength(1);
    expect(existsSync(join(home, 'agents', 'nobody.toml'))).toBe(false);
  });
});
