/**
 * Settings → Profiles (issue 25 item 3): the list with who uses each profile and its
 * price, create with the name checked as typed, delete of a used profile that asks where
 * its agents go, assignment from a list, and the host's refusal shown in place.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppApiError, type ConfigView, type ProfileEdit } from '@shared/ipc';
import { configView, llmFields, profileView } from '../../../testing/config-fixture';
import { createMemoryApi } from '../../../testing/memory-api';
import { flush, renderApp } from '../../../testing/render-app';

/** [llm] (gpt-4o, listed price), `fast` used by swe (no known price), `spare` unused. */
function withProfiles(): ConfigView {
  const config = configView();
  config.profiles = ['fast', 'spare'];
  config.agents.swe = { ...config.agents.swe, profile: 'fast' };
  config.profileViews = [
    profileView('default', llmFields(), ['manus'], { input: 2.5, output: 10, source: 'list' }),
    {
      ...profileView(
        'fast',
        llmFields({ model: 'local-fast' }, { kind: 'profile', profile: 'fast' }),
      ),
      usedBy: [{ agent: 'swe', via: 'agent' }],
    },
    profileView('spare', llmFields({ model: 'spare-model' })),
  ];
  return config;
}

async function openProfiles(config = withProfiles()) {
  const api = createMemoryApi({ config });
  const edits: ProfileEdit[] = [];
  api.override('editProfile', async (edit) => {
    edits.push(edit);
    return config;
  });
  const app = await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('nav-config')));
  await act(async () => fireEvent.click(screen.getByTestId('settings-tab-profiles')));
  return { api, edits, ...app };
}

describe('Settings → Profiles', () => {
  it('lists [llm] and every profile with who uses it and its price, or "price unknown"', async () => {
    await openProfiles();
    expect(screen.getByTestId('profile-card-default').textContent).toContain(
      '$2.50 in / $10.00 out per million tokens (list price of gpt-4o)',
    );
    const fast = screen.getByTestId('profile-card-fast');
    expect(fast.textContent).toContain('local-fast');
    expect(screen.getByTestId('profile-used-by-fast').textContent).toBe(
      'Used by: swe ([agent.swe] llm)',
    );
    expect(fast.textContent).toContain('price unknown');
    expect(fast.textContent).toContain('Input price and Output price');
    expect(fast.textContent).not.toContain('—');
    expect(screen.getByTestId('profile-used-by-spare').textContent).toBe('Used by: no agent');
  });

  it('creates a profile once its name is allowed, then opens its page', async () => {
    const { edits, store } = await openProfiles();
    const input = screen.getAllByTestId('profile-name-input')[0]!;
    fireEvent.change(input, { target: { value: 'fast' } });
    expect(screen.getByTestId('profile-name-error').textContent).toContain(
      'already a profile [llm.fast]',
    );
    expect(screen.getAllByTestId('profile-name-save')[0]!.hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { value: 'my profile' } });
    expect(screen.getByTestId('profile-name-error').textContent).toContain('letters, digits');
    fireEvent.change(input, { target: { value: 'quick' } });
    expect(screen.queryByTestId('profile-name-error')).toBeNull();
    await act(async () => fireEvent.click(screen.getAllByTestId('profile-name-save')[0]!));
    await flush();
    expect(edits).toEqual([{ action: 'create', name: 'quick' }]);
    expect(store.getState().configTarget).toBe('profile:quick');
  });

  it('asks where the agents of a used profile go before deleting it', async () => {
    const { edits } = await openProfiles();
    fireEvent.click(screen.getByTestId('profile-delete-fast'));
    expect(screen.getByTestId('profile-card-fast').textContent).toContain(
      'swe uses this profile. They will use',
    );
    fireEvent.change(screen.getByTestId('profile-reassign-fast'), { target: { value: 'spare' } });
    await act(async () => fireEvent.click(screen.getByTestId('profile-delete-confirm-fast')));
    expect(edits).toEqual([{ action: 'delete', name: 'fast', reassignTo: 'spare' }]);

    // an unused profile is deleted without a reassignment
    fireEvent.click(screen.getByTestId('profile-delete-spare'));
    await act(async () => fireEvent.click(screen.getByTestId('profile-delete-confirm-spare')));
    expect(edits.at(-1)).toEqual({ action: 'delete', name: 'spare' });
  });

  it('renames and duplicates, and shows the host refusing', async () => {
    const { api, edits } = await openProfiles();
    fireEvent.click(screen.getByTestId('profile-rename-fast'));
    const inputs = screen.getAllByTestId('profile-name-input');
    fireEvent.change(inputs.at(-1)!, { target: { value: 'quick' } });
    await act(async () => fireEvent.click(screen.getAllByTestId('profile-name-save').at(-1)!));
    expect(edits).toEqual([{ action: 'rename', name: 'fast', to: 'quick' }]);

    api.override('editProfile', async () => {
      throw new AppApiError({ code: 'conflict', message: 'config.toml changed meanwhile' });
    });
    fireEvent.click(screen.getByTestId('profile-duplicate-default'));
    fireEvent.change(screen.getAllByTestId('profile-name-input').at(-1)!, {
      target: { value: 'copy' },
    });
    await act(async () => fireEvent.click(screen.getAllByTestId('profile-name-save').at(-1)!));
    expect(screen.getByTestId('profile-name-error').textContent).toContain(
      'config.toml changed meanwhile',
    );
  });

  it('assigns a profile to an agent from a list, and removes the choice', async () => {
    const { edits } = await openProfiles();
    const swe = screen.getByTestId('profile-assign-swe') as HTMLSelectElement;
    expect(swe.value).toBe('fast');
    const options = [...swe.options].map((o) => o.textContent);
    expect(options).toEqual(['[llm] (default)', '[llm.fast]', '[llm.spare]']);
    await act(async () => fireEvent.change(swe, { target: { value: '' } }));
    await act(async () =>
      fireEvent.change(screen.getByTestId('profile-assign-manus'), { target: { value: 'spare' } }),
    );
    expect(edits).toEqual([
      { action: 'assign', agent: 'swe', profile: null },
      { action: 'assign', agent: 'manus', profile: 'spare' },
    ]);
  });

  it("edits a profile's own section and tests its connection", async () => {
    const { api } = await openProfiles();
    fireEvent.click(screen.getByTestId('profile-edit-fast'));
    const model = screen.getByTestId('config-field-profile:fast-model') as HTMLInputElement;
    expect(model.value).toBe('local-fast');
    expect(model.getAttribute('data-source')).toBe('overridden');
    fireEvent.change(model, { target: { value: 'faster' } });
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(api.calls.find((c) => c.method === 'saveConfig')?.input).toEqual({
      target: 'profile:fast',
      llm: { model: 'faster' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('settings-tab-profiles')));
    await act(async () => fireEvent.click(screen.getByTestId('profile-test-spare')));
    expect(api.calls.find((c) => c.method === 'testConnection')?.input).toEqual({
      target: 'profile:spare',
    });
  });
});
