/**
 * Saving an agent from the editor or the playground keeps what the user wrote in the
 * file: comments, blank lines, the order of keys and the multi-line prompt style; only
 * the changed values change. A file the patcher cannot keep falls back to the plain text.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { recordedDefinition, resolveDefinition } from './agent-store';
import { saveAgent } from './agent-editing';
import { definitionToToml } from './definition-toml';
import { definitionText } from './definition-text-edit';
import { savePromptIntoAgent } from './save-prompt';

const ctx = { mcpServers: [], profiles: [] };

const HAND_WRITTEN = `# My reviewer: keeps answers short (see notes.md)
name = "mine"
description = "reviews diffs"

# the tools it may call; terminate ends the run
tools = ["bash", "terminate"]
terminate_tools = ["terminate"]

system_prompt = '''
You review code.
Be brief.'''   # tuned on 2026-11-30

next_step_prompt = ""

[run]
max_steps = 12 # enough for one review
`;

function homeWith(text: string): string {
  const home = mkdtempSync(join(tmpdir(), 'wb-def-text-'));
  mkdirSync(join(home, 'agents'));
  writeFileSync(join(home, 'agents', 'mine.toml'), text);
  return home;
}

describe('definitionText', () => {
  it('changes only the edited values of a hand-written file', () => {
    const home = homeWith(HAND_WRITTEN);
    const data = resolveDefinition('mine', home, ctx).data;
    const text = definitionText(
      { ...data, system_prompt: 'You review code.\nBe very brief.', run: { max_steps: 20 } },
      HAND_WRITTEN,
    );
    expect(text).toContain('# My reviewer: keeps answers short (see notes.md)');
    expect(text).toContain('# the tools it may call; terminate ends the run');
    expect(text).toContain("system_prompt = '''\nYou review code.\nBe very brief.'''");
    expect(text).toContain('# tuned on 2026-11-30');
    expect(text).toContain('max_steps = 20 # enough for one review');
    // the same data as the plain text says
    expect(parse(text)).toEqual(
      parse(
        definitionToToml({
          ...data,
          system_prompt: 'You review code.\nBe very brief.',
          run: { max_steps: 20 },
        }),
      ),
    );
  });

  it('drops keys the fields no longer have, and writes the plain text for a broken file', () => {
    const data = { ...resolveDefinition('mine', homeWith(HAND_WRITTEN), ctx).data, run: {} };
    const text = definitionText(data, HAND_WRITTEN);
    expect(parse(text)).not.toHaveProperty('run.max_steps');
    expect(text).toContain('# My reviewer');
    expect(definitionText(data, 'name = "mine"\nsystem_prompt = ')).toBe(definitionToToml(data));
    expect(definitionText(data)).toBe(definitionToToml(data));
  });

  it("the editor's Save and the playground's Save into the agent keep the comments", () => {
    const home = homeWith(HAND_WRITTEN);
    const file = join(home, 'agents', 'mine.toml');
    const data = resolveDefinition('mine', home, ctx).data;
    const result = saveAgent(home, 'mine', { ...data, description: 'reviews diffs well' }, ctx);
    expect(result.issues).toEqual([]);
    expect(readFileSync(file, 'utf8')).toContain('# the tools it may call');
    expect(readFileSync(file, 'utf8')).toContain('description = "reviews diffs well"');

    const ran = recordedDefinition(resolveDefinition('mine', home, ctx));
    savePromptIntoAgent(home, ctx, ran, 'Only say LGTM.');
    const saved = readFileSync(file, 'utf8');
    expect(saved).toContain('# My reviewer: keeps answers short (see notes.md)');
    expect(saved).toContain('max_steps = 12 # enough for one review');
    expect(resolveDefinition('mine', home, ctx).data.system_prompt).toBe('Only say LGTM.');
  });
});
