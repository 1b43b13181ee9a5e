import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configView } from '../../testing/config-fixture';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';

async function openSettings(config = configView()) {
  const api = createMemoryApi({ config });
  const app = await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('nav-config')));
  return { api, ...app };
}

const lastSave = (api: ReturnType<typeof createMemoryApi>) =>
  api.calls.filter((c) => c.method === 'saveConfig').at(-1)?.input;

describe('ConfigEditor', () => {
  it('has a page per agent and the [llm] defaults, and says where each value comes from', async () => {
    await openSettings(configView({ swe: 'gpt-4o-mini' }));
    for (const t of ['default', 'manus', 'swe', 'browser', 'mcp', 'toolcall', 'planning']) {
      expect(screen.getByTestId(`config-tab-${t}`)).toBeTruthy();
    }
    fireEvent.click(screen.getByTestId('config-tab-swe'));
    const model = screen.getByTestId('config-field-swe-model') as HTMLInputElement;
    expect(model.value).toBe('gpt-4o-mini');
    expect(model.getAttribute('data-source')).toBe('overridden');
    expect(model.closest('.cfg-row')?.textContent).toContain('set in [llm.swe]');
    const steps = screen.getByTestId('config-field-swe-max_steps');
    expect(steps.getAttribute('data-source')).toBe('inherited');
    expect(steps.closest('.cfg-row')?.textContent).toContain('inherited from built-in default');
    fireEvent.click(screen.getByTestId('config-tab-default'));
    expect(screen.queryByTestId('config-field-default-max_steps')).toBeNull();
  });

  it("shows the host's warnings about the config files (issue 12: a key others can read)", async () => {
    const warning =
      '/home/u/.agent-workbench/config.toml can be read by other users of this machine (mode 0644) and holds an API key (llm.api_key).';
    await openSettings({ ...configView(), warnings: [warning] });
    expect(screen.getByTestId('config-warnings').textContent).toContain('mode 0644');
  });

  it('says nothing when there is nothing to warn about', async () => {
    await openSettings();
    expect(screen.queryByTestId('config-warnings')).toBeNull();
  });

  it('validates inline and saves only valid edits; reset to inherited sends null', async () => {
    const { api } = await openSettings(configView({ swe: 'gpt-4o-mini' }));
    fireEvent.click(screen.getByTestId('config-tab-swe'));
    fireEvent.change(screen.getByTestId('config-field-swe-temperature'), {
      target: { value: '3' },
    });
    expect(screen.getByTestId('config-error-swe-temperature').textContent).toContain('at most 2');
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toBeUndefined();
    fireEvent.change(screen.getByTestId('config-field-swe-temperature'), {
      target: { value: '0.4' },
    });
    fireEvent.change(screen.getByTestId('config-field-swe-max_steps'), { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('config-reset-swe-model'));
    expect(screen.getByTestId('config-field-swe-model').closest('.cfg-row')?.textContent).toContain(
      'resets to inherited on save',
    );
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toEqual({
      target: 'swe',
      llm: { model: null, temperature: 0.4 },
      settings: { max_steps: 12 },
    });
    expect(screen.getByTestId('config-save-status').textContent).toContain('Saved');
  });

  it('shows and edits a profile’s max_concurrency: empty is no cap, checked like the schema', async () => {
    const config = configView({ swe: 'gpt-4o-mini' });
    config.agents.swe.llm.max_concurrency = {
      value: 2,
      source: { kind: 'profile', profile: 'swe' },
    };
    const { api } = await openSettings(config);
    fireEvent.click(screen.getByTestId('config-tab-manus'));
    const manus = screen.getByTestId('config-field-manus-max_concurrency') as HTMLInputElement;
    expect(manus.value).toBe('');
    expect(manus.placeholder).toBe('no cap');
    fireEvent.click(screen.getByTestId('config-tab-swe'));
    const field = screen.getByTestId('config-field-swe-max_concurrency') as HTMLInputElement;
    expect(field.value).toBe('2');
    expect(field.getAttribute('data-source')).toBe('overridden');
    fireEvent.change(field, { target: { value: '0' } });
    expect(screen.getByTestId('config-error-swe-max_concurrency').textContent).toContain(
      'at least 1',
    );
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toBeUndefined();
    fireEvent.change(field, { target: { value: '3' } });
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toEqual({ target: 'swe', llm: { max_concurrency: 3 } });
    fireEvent.change(screen.getByTestId('config-field-swe-max_concurrency'), {
      target: { value: '' },
    });
    expect(screen.queryByTestId('config-error-swe-max_concurrency')).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toEqual({ target: 'swe', llm: { max_concurrency: null } });
  });

  it('keeps the API key write-only: set, replace or clear, never shown', async () => {
    const { api } = await openSettings();
    fireEvent.click(screen.getByTestId('config-tab-manus'));
    const status = screen.getByTestId('config-key-status');
    expect(status.textContent).toContain('A key is set');
    fireEvent.click(within(status.parentElement!).getByText('replace'));
    const input = screen.getByTestId('config-field-manus-api_key') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.value).toBe('');
    fireEvent.change(input, { target: { value: 'sk-secret-value' } });
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toEqual({
      target: 'manus',
      apiKey: { action: 'set', value: 'sk-secret-value' },
    });
    await flush();
    // after the save the typed key is gone from the page
    expect(screen.queryByTestId('config-field-manus-api_key')).toBeNull();
    expect(document.body.innerHTML).not.toContain('sk-secret-value');

    fireEvent.click(screen.getByTestId('config-key-clear'));
    expect(screen.getByTestId('config-key-status').textContent).toContain('will be removed');
    await act(async () => fireEvent.click(screen.getByTestId('config-save')));
    expect(lastSave(api)).toEqual({ target: 'manus', apiKey: { action: 'clear' } });
  });

  it('tests the connection with the unsaved edits and shows the answer', async () => {
    const { api } = await openSettings();
    fireEvent.click(screen.getByTestId('config-tab-toolcall'));
    fireEvent.change(screen.getByTestId('config-field-toolcall-model'), {
      target: { value: 'other' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('config-test')));
    expect(api.calls.find((c) => c.method === 'testConnection')?.input).toEqual({
      target: 'toolcall',
      llm: { model: 'other' },
    });
    expect(screen.getByTestId('config-test-status').textContent).toContain('Connected');
  });

  it('imports an OpenManus config after showing what it would change', async () => {
    const { api } = await openSettings();
    const imported = configView({ manus: 'from-openmanus' });
    api.override('importOpenManusConfig', async (input) => ({
      config: imported,
      imported: ['llm.model', 'llm.base_url'],
      ignored: [{ path: 'llm.vision', reason: 'no vision profile here' }],
      isSaved: input.dryRun !== true,
    }));
    const file = new File(['[llm]\nmodel = "x"\n'], 'config.toml', { type: 'text/plain' });
    await act(async () => {
      fireEvent.change(screen.getByTestId('config-import-file'), { target: { files: [file] } });
    });
    await flush();
    const report = screen.getByTestId('config-import-report');
    expect(report.textContent).toContain('Would import 2 settings');
    expect(report.textContent).toContain('llm.vision');
    await act(async () => fireEvent.click(screen.getByTestId('config-import-confirm')));
    await flush();
    const calls = api.calls.filter((c) => c.method === 'importOpenManusConfig').map((c) => c.input);
    expect(calls).toEqual([
      { content: '[llm]\nmodel = "x"\n', fileName: 'config.toml', dryRun: true },
      { content: '[llm]\nmodel = "x"\n', fileName: 'config.toml', dryRun: false },
    ]);
    expect(screen.getByTestId('config-import-report').textContent).toContain('Imported and saved');
    fireEvent.click(screen.getByTestId('config-tab-manus'));
    expect((screen.getByTestId('config-field-manus-model') as HTMLInputElement).value).toBe(
      'from-openmanus',
    );
  });

  it('shows config.toml errors with the key and line, and refuses to save', async () => {
    const broken = {
      ...configView(),
      error: {
        message: 'config.toml does not validate',
        issues: [{ path: 'llm.temperature', message: 'must be at most 2', line: 3 }],
      },
    };
    await openSettings(broken);
    expect(screen.getByText(/llm.temperature/).closest('li')?.textContent).toContain('(line 3)');
    fireEvent.click(screen.getByTestId('config-tab-manus'));
    fireEvent.change(screen.getByTestId('config-field-manus-model'), { target: { value: 'x' } });
    expect((screen.getByTestId('config-save') as HTMLButtonElement).disabled).toBe(true);
  });
});
