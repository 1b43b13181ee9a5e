/**
 * `config:profile` (issue 25 item 3) and a run's own profile, round-tripped over the real
 * WebSocket transport with the UI's own adapter: the refusals arrive typed, a profile
 * page saves into `[llm.NAME]` and tests its connection, and pre-flight and run:start
 * see the profile a run picks. contract.test.ts checks that the channel is covered here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppApiError } from '@shared/ipc';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { cleanups, serve } from './testing/ws-contract-fixture';

/** (the coverage is asserted by contract.test.ts, which reads these calls) */
const mark = (channel: string) => channel;

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppApiError);
  return error as AppApiError;
};

describe('contract over WebSocket: model profiles', () => {
  it('config:profile creates, assigns, renames and refuses to delete a used profile', async () => {
    const key = 'sk-profile-0123456789';
    const server = new ScriptedOpenAiServer([{ content: 'ok' }], { apiKey: key });
    const baseUrl = await server.start();
    cleanups.push(() => server.close());
    const { api, home } = await serve(`# mine\n[llm]\nmodel = "m"\nbase_url = "${baseUrl}"\n`);
    mark('config:profile');
    let view = await api.editProfile({ action: 'create', name: 'fast' });
    expect(view.profileViews.map((p) => p.name)).toEqual(['default', 'fast']);
    await api.saveConfig({
      target: 'profile:fast',
      llm: { model: 'fast-model' },
      apiKey: { action: 'set', value: key },
    });
    const text = readFileSync(join(home, 'config.toml'), 'utf8');
    expect(text).toContain('# mine');
    expect(text).toMatch(/\[llm\.fast\]\s*\nmodel = "fast-model"\napi_key = "secret:llm\.fast"/);
    expect(text).not.toContain(key);
    const tested = await api.testConnection({ target: 'profile:fast' });
    expect(tested).toMatchObject({ ok: true, model: 'fast-model', baseUrl });

    view = await api.editProfile({ action: 'assign', agent: 'swe', profile: 'fast' });
    expect(view.agents.swe.llm.model.value).toBe('fast-model');

    const used = await refusal(api.editProfile({ action: 'delete', name: 'fast' }));
    expect(used.code).toBe('conflict');
    expect(used.message).toContain('swe ([agent.swe] llm)');
    const taken = await refusal(api.editProfile({ action: 'create', name: 'fast' }));
    expect(taken.code).toBe('invalid_input');
    const missing = await refusal(api.saveConfig({ target: 'profile:nope', llm: { model: 'x' } }));
    expect(missing.code).toBe('not_found');

    view = await api.editProfile({ action: 'rename', name: 'fast', to: 'quick' });
    expect(view.agents.swe.profile).toBe('quick');
    expect(view.profileViews.find((p) => p.name === 'quick')?.apiKey.isSet).toBe(true);
  });

  it('run:preflight and run:start use the profile a run picks, and refuse an unknown one', async () => {
    const { api } = await serve('[llm]\nmodel = "m"\n[llm.fast]\nmodel = "fast-model"\n');
    const fast = await api.preflightRun({ agent: 'toolcall', profile: 'fast' });
    expect(fast.canStart).toBe(true);
    const unknown = await api.preflightRun({ agent: 'toolcall', profile: 'nope' });
    expect(unknown.canStart).toBe(false);
    expect(unknown.checks[0]).toMatchObject({
      id: 'config',
      status: 'error',
      message: expect.stringContaining('no profile [llm.nope]'),
    });
    const refused = await refusal(api.startRun({ task: 'hi', agent: 'toolcall', profile: 'nope' }));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('[llm.nope]');
  });
});
