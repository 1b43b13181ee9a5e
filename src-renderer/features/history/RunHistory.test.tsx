/**
 * An import that skipped something says so where the user imported (issue 17: an
 * exported run's images that are refused, damaged lines), and a clean import says nothing.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { summarize } from '@shared/run-summary';
import type { RunSummary } from '@shared/ipc';
import { createMemoryApi, type MemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';
import { TEST_IDS } from '../../test-ids';

function importAnswering(
  api: MemoryApi,
  warnings: string[],
  extra: { isAlreadyPresent?: boolean; title?: string } = {},
) {
  const script = new RunScript('run-imp', 'manus', { maxSteps: 3, startTs: 1_700_000_000_000 });
  script.start('imported task');
  script.finish();
  const { isAlreadyPresent, title } = extra;
  api.override('importRun', async () => {
    api.history.set('run-imp', script.events);
    const summary = { ...(summarize(script.events) as RunSummary), ...(title ? { title } : {}) };
    return { summary, warnings, ...(isAlreadyPresent ? { isAlreadyPresent } : {}) };
  });
}

async function importFile() {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  const file = new File(['{}\n'], 'run-imp.jsonl', { type: 'application/x-ndjson' });
  await act(async () => {
    fireEvent.change(input, { target: { files: [file] } });
  });
  await flush();
}

describe('importing a run', () => {
  it('lists what the import skipped, the first five and how many more, until dismissed', async () => {
    const api = createMemoryApi();
    const warnings = Array.from({ length: 7 }, (_, i) => `run-imp.jsonl: note ${i + 1}`);
    importAnswering(api, warnings);
    await renderApp(api);
    await importFile();
    const notes = screen.getByTestId(TEST_IDS.importNotes);
    expect(notes.textContent).toContain('Imported run-imp.jsonl with 7 notes:');
    expect([...notes.querySelectorAll('li')].map((li) => li.textContent)).toEqual(
      warnings.slice(0, 5),
    );
    expect(notes.textContent).toContain('and 2 more');
    // the imported run is opened all the same
    expect(document.querySelector('[data-run-id="run-imp"]')).not.toBeNull();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'dismiss' })));
    expect(screen.queryByTestId(TEST_IDS.importNotes)).toBeNull();
  });

  it('says nothing when nothing was skipped', async () => {
    const api = createMemoryApi();
    importAnswering(api, []);
    await renderApp(api);
    await importFile();
    expect(screen.queryByTestId(TEST_IDS.importNotes)).toBeNull();
    expect(document.querySelector('[data-run-id="run-imp"]')).not.toBeNull();
  });

  it('says so when the run was already there and nothing was imported (issue 25 item 11)', async () => {
    const api = createMemoryApi();
    importAnswering(api, [], { isAlreadyPresent: true, title: 'Baseline' });
    await renderApp(api);
    await importFile();
    const notes = screen.getByTestId(TEST_IDS.importNotes);
    expect(notes.getAttribute('role')).toBe('status');
    expect(notes.textContent).toContain(
      'run-imp.jsonl: this run (“Baseline”) is already in the history with the same events; nothing imported.',
    );
    expect(document.querySelector('[data-run-id="run-imp"]')).not.toBeNull();
  });
});

describe('the agent and version filters', () => {
  it("offers a user agent's versions once it is chosen, and lists only that version's runs", async () => {
    const api = createMemoryApi();
    const add = (runId: string, version: number | undefined, agent: string, ts: number) => {
      const script = new RunScript(runId, agent, { maxSteps: 3, startTs: ts }).start(runId);
      const started = script.events[0]!;
      if (version !== undefined && started.type === 'run.started') {
        started.agentDefinition = {
          definition: {
            name: agent,
            description: '',
            system_prompt: 'p',
            next_step_prompt: '',
            tools: [],
            terminate_tools: [],
            run: {},
          },
          hash: '0123456789abcdef',
          version,
          source: 'home',
        };
      }
      script.finish();
      api.history.set(runId, script.events);
    };
    add('mine-v1', 1, 'mine', 1_700_000_000_000);
    add('mine-v2', 2, 'mine', 1_700_000_001_000);
    add('manus-run', undefined, 'manus', 1_700_000_002_000);
    await renderApp(api);
    const shown = () =>
      screen.getAllByTestId('run-history-item').map((row) => row.getAttribute('data-run-id'));
    expect(shown()).toHaveLength(3);
    expect(screen.queryByTestId(TEST_IDS.historyAgentVersion)).toBeNull();
    fireEvent.change(screen.getByTestId(TEST_IDS.historyAgent), { target: { value: 'mine' } });
    expect(shown()).toEqual(['mine-v2', 'mine-v1']);
    const version = screen.getByTestId(TEST_IDS.historyAgentVersion) as HTMLSelectElement;
    expect([...version.options].map((o) => o.textContent)).toEqual([
      'any version',
      'mine@1',
      'mine@2',
    ]);
    fireEvent.change(version, { target: { value: '1' } });
    expect(shown()).toEqual(['mine-v1']);
    // another agent: the version filter goes
    fireEvent.change(screen.getByTestId(TEST_IDS.historyAgent), { target: { value: 'manus' } });
    expect(shown()).toEqual(['manus-run']);
    expect(screen.queryByTestId(TEST_IDS.historyAgentVersion)).toBeNull();
  });
});
