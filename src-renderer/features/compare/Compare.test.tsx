import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep, type StepSpec } from '@shared/compare/testing/history';
import { createMemoryApi, type MemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { nextDifference } from './compare-nav';

const base = (): StepSpec[] => [1, 2, 3, 4, 5].map(plainStep);

/** Run B diverges at step 3 (another argument) and at step 5 (another reply). */
function divergent(): StepSpec[] {
  const steps = base();
  steps[2] = {
    ...steps[2]!,
    calls: [{ name: 'bash', args: { command: 'ls -la module_3' }, output: 'file_3.py' }],
  };
  steps[4] = { ...steps[4]!, reply: 'Step 5: a different idea.' };
  return steps;
}

function withRuns(runs: Record<string, StepSpec[]>): MemoryApi {
  const api = createMemoryApi();
  let ts = 1_700_000_000_000;
  for (const [runId, steps] of Object.entries(runs)) {
    api.history.set(
      runId,
      history(runId, steps, { startTs: (ts += 60_000), settings: { 'llm.model': runId } }),
    );
  }
  return api;
}

async function pick(runIds: string[]) {
  fireEvent.click(screen.getByTestId('history-compare-toggle'));
  for (const runId of runIds) {
    const box = screen
      .getAllByTestId('history-compare-check')
      .find((el) => el.getAttribute('data-run-id') === runId)!;
    fireEvent.click(box);
  }
  await act(async () => fireEvent.click(screen.getByTestId('history-compare-open')));
  await flush();
}

const currentRow = () =>
  document.querySelector('[data-testid="compare-row"][aria-current="true"]')!;

describe('the compare view', () => {
  it('opens two runs picked in the history on the first divergence, highlights the changed argument, and steps by key', async () => {
    const api = withRuns({ 'run-a': base(), 'run-b': divergent() });
    await renderApp(api);
    await pick(['run-a', 'run-b']);
    expect(api.calls.find((c) => c.method === 'diffRuns')?.input).toEqual({
      a: 'run-a',
      b: 'run-b',
    });
    // the answer names the steps; their contents come in one page per run (runs:steps)
    expect(api.calls.filter((c) => c.method === 'getRunSteps').map((c) => c.input)).toEqual([
      { runId: 'run-a', from: 0, to: 64 },
      { runId: 'run-b', from: 0, to: 64 },
    ]);
    const view = screen.getByTestId('compare-view');
    expect(view.getAttribute('data-state')).toBe('ready');
    expect(screen.getByTestId('compare-status').textContent).toContain(
      '2 of 7 rows differ; first at step 3',
    );
    expect(within(screen.getByTestId('compare-settings')).getByText('llm.model')).toBeTruthy();

    const row = currentRow();
    expect(row.getAttribute('data-step-a')).toBe('3');
    expect(row.getAttribute('data-first-divergence')).toBe('true');
    const arg = row.querySelector('[data-testid="compare-arg"][data-key="command"]')!;
    expect(arg.getAttribute('data-changed')).toBe('true');
    expect(arg.querySelector('.side-b ins')?.textContent).toBe('-la ');
    expect(arg.querySelector('.side-a ins')).toBeNull();
    // an unchanged row stays closed: no field diffs rendered for it
    const same = document.querySelector('[data-testid="compare-row"][data-status="same"]')!;
    expect(same.querySelector('[data-testid="compare-field"]')).toBeNull();

    act(() => void fireEvent.keyDown(document.body, { key: 'n' }));
    expect(currentRow().getAttribute('data-step-a')).toBe('5');
    expect(currentRow().querySelector('[data-field="reply"]')?.getAttribute('data-changed')).toBe(
      'true',
    );
    act(() => void fireEvent.keyDown(document.body, { key: 'n' }));
    expect(currentRow().getAttribute('data-step-a')).toBe('5');
    act(() => void fireEvent.keyDown(document.body, { key: 'p' }));
    expect(currentRow().getAttribute('data-step-a')).toBe('3');
    act(() => void fireEvent.keyDown(document.body, { key: 'j' }));
    expect(currentRow().getAttribute('data-step-a')).toBe('4');

    // swapping sides re-reads nothing: B's argument is now on the left, struck out
    fireEvent.click(screen.getByTestId('compare-swap'));
    expect(api.calls.filter((c) => c.method === 'diffRuns')).toHaveLength(1);
    const setting = screen.getByTestId('compare-settings').querySelector('[data-key="llm.model"]')!;
    expect(setting.textContent).toBe('llm.modelrun-brun-a');
    const swapped = currentRow().querySelector('[data-testid="compare-arg"][data-key="command"]')!;
    expect(swapped.querySelector('.side-a del')?.textContent).toBe('-la ');
  });

  it('says two identical runs are equivalent', async () => {
    const api = withRuns({ 'run-a': base(), 'run-b': base() });
    await renderApp(api);
    await pick(['run-b', 'run-a']);
    const status = screen.getByTestId('compare-status');
    expect(status.getAttribute('data-equivalent')).toBe('true');
    expect((screen.getByTestId('compare-next') as HTMLButtonElement).disabled).toBe(true);
  });

  it('summarises three runs against the first and opens a pair from the table', async () => {
    const api = withRuns({ 'run-a': base(), 'run-b': base(), 'run-c': divergent() });
    await renderApp(api);
    await pick(['run-a', 'run-b', 'run-c']);
    const rows = screen.getAllByTestId('compare-table-row');
    expect(rows.map((r) => r.getAttribute('data-equivalent'))).toEqual([null, 'true', 'false']);
    expect(rows[2]!.textContent).toContain('differs at step 3');
    const diffButtons = screen.getAllByTestId('compare-table-diff');
    await act(async () => fireEvent.click(diffButtons[1]!));
    await flush();
    expect(api.calls.filter((c) => c.method === 'diffRuns').at(-1)?.input).toEqual({
      a: 'run-a',
      b: 'run-c',
    });
    expect(currentRow().getAttribute('data-step-b')).toBe('3');
    await act(async () => fireEvent.click(screen.getByText('← All 3 runs')));
    await flush();
    expect(screen.getByTestId('compare-table')).toBeTruthy();
  });

  it('offers “compare with parent” on a fork and shares the prefix up to the fork step', async () => {
    const api = createMemoryApi();
    api.history.set('parent', history('parent', base(), { startTs: 1_700_000_000_000 }));
    const tail = base().slice(2);
    tail[1] = { ...tail[1]!, reply: 'The fork tries something else at step 4.' };
    api.history.set(
      'fork',
      history('fork', tail, {
        startTs: 1_700_000_100_000,
        firstStep: 3,
        startExtras: { forkOf: { runId: 'parent', step: 2 } },
      }),
    );
    const { store } = await renderApp(api);
    await act(async () => store.getState().selectRun('parent'));
    await flush();
    expect(screen.queryByTestId('compare-with-parent')).toBeNull();
    await act(async () => store.getState().selectRun('fork'));
    await flush();
    await act(async () => fireEvent.click(screen.getByTestId('compare-with-parent')));
    await flush();
    expect(api.calls.find((c) => c.method === 'diffRuns')?.input).toEqual({
      a: 'parent',
      b: 'fork',
    });
    expect(screen.getByText('a fork: steps up to 2 are shared')).toBeTruthy();
    const statuses = [...document.querySelectorAll('[data-testid="compare-row"]')].map((r) =>
      r.getAttribute('data-status'),
    );
    expect(statuses.slice(0, 4)).toEqual(['same', 'shared', 'shared', 'same']);
    expect(currentRow().getAttribute('data-step-b')).toBe('4');
  });

  it('names renamed runs by their title and measures a fork against its parent after the fork step', async () => {
    const api = createMemoryApi();
    const tokens = { prompt: 100, completion: 10 };
    const steps = base().map((s) => ({ ...s, tokens }));
    api.history.set('parent', history('parent', steps, { startTs: 1_700_000_000_000 }));
    api.history.set(
      'fork',
      history('fork', steps.slice(2), {
        startTs: 1_700_000_100_000,
        firstStep: 3,
        startExtras: { forkOf: { runId: 'parent', step: 2 } },
      }),
    );
    await api.renameRun({ runId: 'parent', title: 'Baseline on gpt-4o' });
    const { store } = await renderApp(api);
    await act(async () => store.getState().selectRun('fork'));
    await flush();
    await act(async () => fireEvent.click(screen.getByTestId('compare-with-parent')));
    await flush();

    const [a, b] = screen.getAllByTestId('compare-run');
    expect(a!.querySelector('.cmp-run-task')!.textContent).toBe('Baseline on gpt-4o');
    expect(within(a!).getByTestId('compare-run-task').textContent).toBe(
      'task: Fix the failing test',
    );
    expect(b!.querySelector('.cmp-run-task')!.textContent).toBe('Fix the failing test');
    expect(within(b!).queryByTestId('compare-run-task')).toBeNull();

    const summary = screen.getByTestId('compare-summary');
    expect(summary.getAttribute('data-fork-step')).toBe('2');
    expect(screen.getByTestId('compare-fork-note').textContent).toContain(
      'B is a fork of A at step 2: the figures compare what each run did after step 2',
    );
    const cells = (figure: string) =>
      [...summary.querySelectorAll(`tr[data-figure="${figure}"] td`)].map((td) => td.textContent);
    // 3 steps of 110 tokens on each side after step 2, not 550 against 330 ("−220")
    expect(cells('tokens')).toEqual(['330', '330', '±0']);
    expect(cells('steps')).toEqual(['3', '3', '±0']);
    expect(cells('shared')).toEqual([
      '2 steps · 220 tokens · 2 tool calls, run by the parent',
      'inherited',
      'not compared',
    ]);
  });

  it('folds long stretches of identical steps and opens a fold when the keys move into it', async () => {
    const long = (): StepSpec[] => Array.from({ length: 12 }, (_, i) => plainStep(i + 1));
    const changed = long();
    changed[9] = { ...changed[9]!, reply: 'Step 10, differently.' };
    const api = withRuns({ 'run-a': long(), 'run-b': changed });
    await renderApp(api);
    await pick(['run-a', 'run-b']);
    // the task and steps 1-12 and the outcome: steps 1-8 are folded, step 9 is context
    const fold = screen.getByTestId('compare-fold');
    expect(fold.getAttribute('data-count')).toBe('8');
    expect(currentRow().getAttribute('data-step-a')).toBe('10');
    act(() => void fireEvent.keyDown(document.body, { key: 'k' }));
    expect(currentRow().getAttribute('data-step-a')).toBe('9');
    act(() => void fireEvent.keyDown(document.body, { key: 'k' }));
    await flush();
    expect(screen.queryByTestId('compare-fold')).toBeNull();
    expect(currentRow().getAttribute('data-step-a')).toBe('8');
  });

  it('shows why a comparison failed', async () => {
    const api = withRuns({ 'run-a': base(), 'run-b': base() });
    api.override('diffRuns', async () => {
      throw new Error('No run with id run-b');
    });
    await renderApp(api);
    await pick(['run-a', 'run-b']);
    expect(screen.getByRole('alert').textContent).toContain('No run with id run-b');
  });
});

describe('nextDifference', () => {
  const rows = ['same', 'changed', 'same', 'only-b', 'same'].map((status) => ({
    status: status as 'same',
    a: 0,
    b: 0,
  }));
  it('finds the next and previous differing row and stays put at the ends', () => {
    expect(nextDifference(rows, 0, 1)).toBe(1);
    expect(nextDifference(rows, 1, 1)).toBe(3);
    expect(nextDifference(rows, 3, 1)).toBe(3);
    expect(nextDifference(rows, 3, -1)).toBe(1);
    expect(nextDifference(rows, 1, -1)).toBe(1);
  });
});
