/**
 * Profiles as objects (issue 25 item 3), through the config service on real files:
 * create, duplicate, rename, delete and assign, with the references of every agent
 * and the stored keys following, comments kept and refusals that change nothing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileNameProblem } from '@shared/ipc';
import { ConfigService } from './config-service';
import { ProfileEditError } from './profile-edits';
import { FileSecretStore } from './secrets';

function service(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'wb-profiles-'));
  const file = join(dir, 'config.toml');
  writeFileSync(file, text);
  const secrets = new FileSecretStore(join(dir, 'secrets.json'), undefined, () => {});
  const config = new ConfigService({ file, secrets, env: {} });
  return { config, file, secrets, text: () => readFileSync(file, 'utf8') };
}

const CONFIG = `# my models
[llm]
model = "gpt-4o"
api_key = "env:OPENAI_API_KEY"

[llm.fast]   # the cheap one
model = "gpt-4o-mini"

[llm.swe]
model = "swe-model"

[agent]
llm = "fast"

[agent.toolcall]
llm = "fast"
max_steps = 7

[agent.manus]
llm = "fast"
`;

const refusal = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    return error as ProfileEditError;
  }
  throw new Error('not refused');
};

describe('profile edits', () => {
  it('lists [llm] and every profile with the agents that use each, and how', () => {
    const { config } = service(CONFIG);
    const views = config.view().profileViews;
    expect(views.map((p) => p.name)).toEqual(['default', 'fast', 'swe']);
    const usedBy = Object.fromEntries(views.map((p) => [p.name, p.usedBy]));
    expect(usedBy['fast']).toEqual([
      { agent: 'manus', via: 'agent' },
      { agent: 'swe', via: 'agents' },
      { agent: 'browser', via: 'agents' },
      { agent: 'mcp', via: 'agents' },
      { agent: 'toolcall', via: 'agent' },
      { agent: 'planning', via: 'agents' },
    ]);
    // the bare [agent] llm wins over swe's own profile, as resolve.ts reads it
    expect(usedBy['swe']).toEqual([]);
    expect(usedBy['default']).toEqual([]);
  });

  it('renames a profile: every [agent] reference follows, the comment and the rest stay', () => {
    const { config, text } = service(CONFIG);
    const view = config.editProfile({ action: 'rename', name: 'fast', to: 'quick' });
    expect(view.profiles).toEqual(['quick', 'swe']);
    expect(text()).toContain('# my models');
    expect(text()).not.toMatch(/"fast"|\[llm\.fast\]/);
    expect(view.agents.toolcall.profile).toBe('quick');
    expect(view.agents.toolcall.settings.max_steps.value).toBe(7);
    expect(view.agents.manus.profile).toBe('quick');
    expect(view.agents.browser.profile).toBe('quick');
    expect(view.agents.manus.llm.model.value).toBe('gpt-4o-mini');
  });

  it('renaming a profile an agent uses by its own name keeps that agent on it', () => {
    const { config } = service('[llm]\nmodel = "m"\n[llm.swe]\nmodel = "swe-model"\n');
    expect(config.view().agents.swe.llm.model.value).toBe('swe-model');
    const view = config.editProfile({ action: 'rename', name: 'swe', to: 'coder' });
    expect(view.agents.swe.profile).toBe('coder');
    expect(view.agents.swe.llm.model.value).toBe('swe-model');
  });

  it('moves the stored key with a renamed profile, and copies it for a duplicate', () => {
    const { config, secrets, text } = service('[llm]\nmodel = "m"\n[llm.fast]\nmodel = "f"\n');
    config.save({ target: 'profile:fast', apiKey: { action: 'set', value: 'sk-fast-0123456789' } });
    expect(text()).toContain('api_key = "secret:llm.fast"');

    config.editProfile({ action: 'create', name: 'fast2', from: 'fast' });
    expect(text()).toContain('api_key = "secret:llm.fast2"');
    expect(secrets.get('llm.fast2')).toBe('sk-fast-0123456789');
    // a new key for the copy leaves the original's alone
    config.save({ target: 'profile:fast2', apiKey: { action: 'set', value: 'sk-other-0123456' } });
    expect(secrets.get('llm.fast')).toBe('sk-fast-0123456789');

    config.editProfile({ action: 'rename', name: 'fast', to: 'quick' });
    expect(text()).toContain('api_key = "secret:llm.quick"');
    expect(text()).not.toContain('secret:llm.fast"');
    expect(secrets.get('llm.quick')).toBe('sk-fast-0123456789');
    expect(secrets.get('llm.fast')).toBeUndefined();
    expect(config.resolveNamedProfile('quick').apiKey).toBe('sk-fast-0123456789');
    // never in config.toml itself
    expect(text()).not.toContain('sk-fast-0123456789');
  });

  it('refuses to delete a profile an agent uses, saying which; reassigns when told', () => {
    const { config, text } = service(CONFIG);
    const before = text();
    const refused = refusal(() => config.editProfile({ action: 'delete', name: 'fast' }));
    expect(refused).toBeInstanceOf(ProfileEditError);
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('manus ([agent.manus] llm)');
    expect(refused.message).toContain('swe ([agent] llm)');
    expect(text()).toBe(before);

    const view = config.editProfile({ action: 'delete', name: 'fast', reassignTo: 'default' });
    expect(view.profiles).toEqual(['swe']);
    expect(text()).not.toContain('fast');
    // with [agent] llm gone swe is back on its own profile; the others on [llm]
    expect(view.agents.swe.profile).toBe('swe');
    expect(view.agents.manus.profile).toBeNull();
    expect(view.agents.toolcall.settings.max_steps.value).toBe(7);
  });

  it('reassigns the users of a deleted profile to another profile, by-name users too', () => {
    const { config } = service(
      '[llm]\nmodel = "m"\n[llm.swe]\nmodel = "s"\n[llm.big]\nmodel = "b"\n',
    );
    const view = config.editProfile({ action: 'delete', name: 'swe', reassignTo: 'big' });
    expect(view.profiles).toEqual(['big']);
    expect(view.agents.swe.profile).toBe('big');
  });

  it('deletes an unused profile and its stored key', () => {
    const { config, secrets } = service('[llm]\nmodel = "m"\n[llm.spare]\nmodel = "s"\n');
    config.save({ target: 'profile:spare', apiKey: { action: 'set', value: 'sk-spare-0123456' } });
    config.editProfile({ action: 'delete', name: 'spare' });
    expect(secrets.get('llm.spare')).toBeUndefined();
  });

  it('creates an empty profile (all of [llm]) and assigns it to an agent', () => {
    const { config, text } = service('# keep me\n[llm]\nmodel = "m"\n');
    let view = config.editProfile({ action: 'create', name: 'fast' });
    expect(view.profiles).toEqual(['fast']);
    expect(text()).toContain('[llm.fast]');
    expect(text()).toContain('# keep me');
    view = config.save({ target: 'profile:fast', llm: { model: 'gpt-e2e-fast' } });
    expect(view.agents.swe.llm.model.value).toBe('m');
    view = config.editProfile({ action: 'assign', agent: 'swe', profile: 'fast' });
    expect(view.agents.swe.profile).toBe('fast');
    expect(view.agents.swe.llm.model.value).toBe('gpt-e2e-fast');
    expect(view.profileViews.find((p) => p.name === 'fast')?.usedBy).toEqual([
      { agent: 'swe', via: 'agent' },
    ]);
    view = config.editProfile({ action: 'assign', agent: 'swe', profile: null });
    expect(view.agents.swe.profile).toBeNull();
  });

  it('refuses bad and taken names with what to do, and unknown profiles', () => {
    const { config, text } = service(CONFIG);
    const before = text();
    const cases: [Parameters<ConfigService['editProfile']>[0], string, string][] = [
      [{ action: 'create', name: 'fast' }, 'invalid_input', 'already a profile [llm.fast]'],
      [{ action: 'create', name: 'a.b' }, 'invalid_input', 'letters, digits'],
      [{ action: 'create', name: 'default' }, 'invalid_input', '[llm] itself'],
      [{ action: 'create', name: 'model' }, 'invalid_input', 'key of [llm]'],
      [{ action: 'create', name: 'manus' }, 'invalid_input', "agent's name"],
      [{ action: 'rename', name: 'fast', to: 'swe' }, 'invalid_input', "agent's name"],
      [{ action: 'rename', name: 'nope', to: 'x' }, 'not_found', 'no profile [llm.nope]'],
      [{ action: 'assign', agent: 'swe', profile: 'nope' }, 'not_found', 'no profile'],
      [{ action: 'create', name: 'x', from: 'nope' }, 'not_found', 'no profile'],
    ];
    for (const [edit, code, words] of cases) {
      const refused = refusal(() => config.editProfile(edit));
      expect(refused.code, JSON.stringify(edit)).toBe(code);
      expect(refused.message).toContain(words);
    }
    expect(text()).toBe(before);
  });

  it('shows each profile price: its own keys, the list price, or unknown', () => {
    const { config } = service(
      '[llm]\nmodel = "gpt-4o"\n[llm.own]\nmodel = "x"\ninput_price = 1\noutput_price = 2\n[llm.local]\nmodel = "llama3"\n',
    );
    const price = Object.fromEntries(config.view().profileViews.map((p) => [p.name, p.price]));
    expect(price['default']).toEqual({ input: 2.5, output: 10, source: 'list' });
    expect(price['own']).toEqual({ input: 1, output: 2, source: 'profile' });
    expect(price['local']).toBeNull();
  });

  it('names the same rules in the form and the host', () => {
    expect(profileNameProblem('fast-2', ['fast'])).toBeNull();
    expect(profileNameProblem('', [])).toContain('Give the profile a name');
    expect(profileNameProblem('-x', [])).toContain('starting with a letter or digit');
  });
});
