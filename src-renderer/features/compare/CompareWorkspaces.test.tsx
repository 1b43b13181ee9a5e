/**
 * The compare page's Workspaces section (issue 32 item 5): the files that differ at the
 * end, and at the selected row's steps as the selection moves (`runs:workspaces-diff`).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep, type StepSpec } from '@shared/compare/testing/history';
import type { WorkspaceDifference } from '@shared/domain/files';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';

const base = (): StepSpec[] => [1, 2, 3, 4].map(plainStep);

const mainChanged: WorkspaceDifference = {
  path: 'main.py',
  difference: 'changed',
  kind: 'file',
  sizeA: 13,
  sizeB: 13,
  hashA: 'a'.repeat(64),
  hashB: 'b'.repeat(64),
};
const extraAdded: WorkspaceDifference = {
  path: 'extra.txt',
  difference: 'added',
  kind: 'file',
  sizeB: 10,
  hashB: 'c'.repeat(64),
};

async function openPair() {
  fireEvent.click(screen.getByTestId('history-compare-toggle'));
  for (const runId of ['run-a', 'run-b']) {
    const box = screen
      .getAllByTestId('history-compare-check')
      .find((el) => el.getAttribute('data-run-id') === runId)!;
    fireEvent.click(box);
  }
  await act(async () => fireEvent.click(screen.getByTestId('history-compare-open')));
  await flush();
}

const files = (testId: string) =>
  within(screen.getByTestId(testId))
    .queryAllByTestId('compare-workspace-file')
    .map((el) => `${el.getAttribute('data-difference')} ${el.getAttribute('data-path')}`);

describe('the compare view: workspaces', () => {
  it('lists the files that differ at the end and at the selected row', async () => {
    const api = createMemoryApi();
    const b = base();
    b[2] = { ...b[2]!, reply: 'Step 3: another way.' };
    api.history.set('run-a', history('run-a', base(), { startTs: 1_700_000_000_000 }));
    api.history.set('run-b', history('run-b', b, { startTs: 1_700_000_060_000 }));
    api.override('diffRunWorkspaces', async ({ a, b: runB, stepA, stepB }) => ({
      a: { runId: a, step: stepA ?? 4, asOf: stepA ?? 4 },
      b: { runId: runB, step: stepB ?? 4, asOf: stepB ?? 4 },
      // the workspaces part at step 3
      files: stepA === undefined ? [extraAdded, mainChanged] : stepA >= 3 ? [mainChanged] : [],
    }));
    await renderApp(api);
    await openPair();

    const section = screen.getByTestId('compare-workspaces');
    expect(section.getAttribute('data-differs')).toBe('true');
    expect(section.querySelector('h3')?.textContent).toBe('Workspaces differ');
    expect(screen.getByTestId('compare-workspaces-end').textContent).toContain(
      '2 files differ at the end (A step 4, B step 4)',
    );
    expect(files('compare-workspaces-end')).toEqual(['added extra.txt', 'changed main.py']);
    expect(screen.getByTestId('compare-workspaces-end').textContent).toContain(
      'other content · 13 bytes',
    );

    // the view opens on the first divergence (step 3): the files at A's and B's step 3
    expect(screen.getByTestId('compare-workspaces-row').textContent).toContain(
      '1 file differs at step 3 (A step 3, B step 3)',
    );
    expect(files('compare-workspaces-row')).toEqual(['changed main.py']);
    expect(api.calls.filter((c) => c.method === 'diffRunWorkspaces').map((c) => c.input)).toEqual(
      expect.arrayContaining([
        { a: 'run-a', b: 'run-b' },
        { a: 'run-a', b: 'run-b', stepA: 3, stepB: 3 },
      ]),
    );

    await act(async () => void fireEvent.keyDown(document.body, { key: 'k' }));
    await flush();
    expect(screen.getByTestId('compare-workspaces-row').textContent).toContain(
      'The same at step 2 (A step 2, B step 2)',
    );
    expect(files('compare-workspaces-row')).toEqual([]);
  });

  it('names the first aligned step where the workspaces differ and goes to it', async () => {
    const api = createMemoryApi();
    const b = base();
    b[1] = { ...b[1]!, reply: 'Step 2: another way.' };
    api.history.set('run-a', history('run-a', base(), { startTs: 1_700_000_000_000 }));
    api.history.set('run-b', history('run-b', b, { startTs: 1_700_000_060_000 }));
    api.override('diffRunWorkspaces', async ({ a, b: runB, stepA, stepB }) => ({
      a: { runId: a, step: stepA ?? 4, asOf: stepA ?? 4 },
      b: { runId: runB, step: stepB ?? 4, asOf: stepB ?? 4 },
      files: stepA === undefined || stepA >= 3 ? [mainChanged] : [],
    }));
    // the host answers from the pairs the page sends: the files part at step 3
    api.override('firstWorkspaceDivergence', async ({ a, b: runB, pairs }) => {
      const pair = pairs.find((p) => p.stepA >= 3);
      return {
        first: pair
          ? {
              ...pair,
              diff: {
                a: { runId: a, step: pair.stepA, asOf: pair.stepA },
                b: { runId: runB, step: pair.stepB, asOf: pair.stepB },
                files: [mainChanged],
              },
            }
          : null,
      };
    });
    await renderApp(api);
    await openPair();

    const first = screen.getByTestId('compare-workspaces-first');
    expect(first.textContent).toBe('First differ at step 3 (A step 3, B step 3): 1 file');
    const sent = api.calls.find((c) => c.method === 'firstWorkspaceDivergence')?.input as {
      pairs: { stepA: number; stepB: number }[];
    };
    expect(sent.pairs.map((p) => p.stepA)).toEqual([1, 2, 3, 4]);
    // the view opened on the first difference of the steps (step 2); the link goes to step 3
    expect(screen.getByTestId('compare-workspaces-row').textContent).toContain('at step 2');
    await act(async () => fireEvent.click(screen.getByTestId('compare-workspaces-first-link')));
    await flush();
    expect(screen.getByTestId('compare-workspaces-row').getAttribute('data-row')).toBe(
      first.getAttribute('data-row'),
    );
    expect(screen.getByTestId('compare-workspaces-row').textContent).toContain(
      '1 file differs at step 3 (A step 3, B step 3)',
    );
  });

  it('says why the files were not compared', async () => {
    const api = createMemoryApi();
    api.history.set('run-a', history('run-a', base(), { startTs: 1_700_000_000_000 }));
    api.history.set('run-b', history('run-b', base(), { startTs: 1_700_000_060_000 }));
    await renderApp(api);
    await openPair();
    const section = screen.getByTestId('compare-workspaces');
    expect(section.getAttribute('data-differs')).toBe('false');
    expect(screen.getByTestId('compare-workspaces-end').textContent).toContain(
      'Not compared: Run run-a has no sandbox checkpoints',
    );
  });
});
