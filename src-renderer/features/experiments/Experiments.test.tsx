import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { AppApiError } from '@shared/ipc';
import type { ExperimentTrendView } from '@shared/domain/experiments';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { experimentView } from '../../testing/experiment-fixture';
import { EMPTY_EXPERIMENT_FORM, experimentInputOf, newScorerRow } from './experiment-form';
import { experimentsRouteOf, formatExperimentsRoute } from './experiments-route';
import { importJsonl, itemsOf } from './dataset-rows';

const byData = (testId: string, key: string, value: string) =>
  screen.getAllByTestId(testId).find((el) => el.getAttribute(`data-${key}`) === value)!;

describe('the Experiments page', () => {
  it('shows a report: intervals, pass@k, the comparison in words, flips opening the compare, cells opening runs', async () => {
    // B passes on items 0-5 where A fails on 0-5: six of six the same way
    const view = experimentView(8, 2, (i, v) => (i < 6 ? v : 1));
    const api = createMemoryApi();
    api.override('listExperiments', async () => [view.summary]);
    api.override('getExperiment', async () => view);
    await renderApp(api);
    fireEvent.click(screen.getByTestId('nav-experiments'));
    await flush();
    expect(window.location.hash).toBe('#/experiments');
    await act(async () => fireEvent.click(screen.getByTestId('experiment-list-item')));
    await flush();
    expect(window.location.hash).toBe('#/experiments/x-test');
    const report = screen.getByTestId('experiment-report');
    expect(report.getAttribute('data-done')).toBe('32');
    expect(report.getAttribute('data-state')).toBe('complete');
    const a = view.report.variants[0]!.scorers[0]!;
    const cell = byData('experiment-score', 'variant', 'A');
    expect(cell.getAttribute('data-scorer')).toBe('check');
    expect(Number(cell.getAttribute('data-mean'))).toBe(a.mean);
    expect(Number(cell.getAttribute('data-low'))).toBe(a.interval!.low);
    expect(cell.textContent).toContain(
      `[${a.interval!.low.toFixed(2)}, ${a.interval!.high.toFixed(2)}]`,
    );
    expect(screen.getAllByTestId('experiment-passk')[0]!.textContent).toMatch(
      /pass@1 .*pass@2 .*pass\^2/,
    );
    expect(byData('experiment-figures', 'variant', 'B').textContent).toContain('tokens: mean 200');
    const check = byData('experiment-comparison', 'scorer', 'check');
    expect(check.getAttribute('data-verdict')).toBe('better');
    expect(check.textContent).toContain('B is significantly better than A (p = 0.031)');
    const judge = byData('experiment-comparison', 'scorer', 'judge');
    expect(judge.textContent).toContain('not distinguishable from noise');
    const flips = screen.getAllByTestId('experiment-flipped');
    expect(flips.map((f) => f.getAttribute('data-item'))).toEqual([
      'i0',
      'i1',
      'i2',
      'i3',
      'i4',
      'i5',
    ]);

    api.history.set('run-2-0-0', history('run-2-0-0', [1, 2].map(plainStep)));
    api.history.set('run-2-1-0', history('run-2-1-0', [1, 2].map(plainStep)));
    await act(async () => fireEvent.click(byData('experiment-flipped', 'item', 'i2')));
    await flush();
    expect(api.calls.find((c) => c.method === 'diffRuns')?.input).toEqual({
      a: 'run-2-0-0',
      b: 'run-2-1-0',
    });
    expect(window.location.hash).toBe('#/compare/run-2-0-0,run-2-1-0');

    window.history.back();
    fireEvent.click(screen.getByTestId('nav-experiments'));
    await flush();
    await act(async () => fireEvent.click(screen.getByTestId('experiment-list-item')));
    await flush();
    await act(async () => fireEvent.click(byData('experiment-cell-run', 'run-id', 'run-7-1-1')));
    await flush();
    expect(window.location.hash).toBe('#/run/run-7-1-1');
  });

  it('shows the first 100 items of a large report, the rest on demand', async () => {
    const view = experimentView(130, 1, (i, v) => (i + v) % 2);
    const api = createMemoryApi();
    api.override('getExperiment', async () => view);
    const { store } = await renderApp(api);
    act(() => store.getState().showExperiments({ kind: 'report', experimentId: 'x-test' }));
    await flush();
    expect(screen.getAllByTestId('experiment-cell')).toHaveLength(200);
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Show all 130 items (30 more)' })),
    );
    expect(screen.getAllByTestId('experiment-cell')).toHaveLength(260);
  });

  it('runs an experiment from the form and follows its progress pushes', async () => {
    const api = createMemoryApi();
    api.override('listDatasets', async () => [
      {
        name: 'smoke',
        path: '/h/datasets/smoke.jsonl',
        version: 'sha256:aa',
        items: 3,
        modifiedAt: 0,
      },
    ]);
    let done = 0;
    const view = () => {
      const v = experimentView(3, 1, (i, variant) => (i < done ? variant : 0));
      v.summary.progress = {
        ...v.summary.progress!,
        done,
        running: 6 - done,
        queued: 0,
        isComplete: done === 6,
      };
      return v;
    };
    api.override('startExperiment', async () => view().summary);
    api.override('getExperiment', async () => view());
    await renderApp(api);
    fireEvent.click(screen.getByTestId('nav-experiments'));
    await flush();
    await act(async () => fireEvent.click(screen.getByTestId('experiment-start')));
    expect(screen.getByTestId('experiment-error').textContent).toMatch(/Name/);
    fireEvent.change(screen.getByTestId('experiment-name'), { target: { value: 'gui' } });
    const [, b] = screen.getAllByTestId('experiment-variant-agent');
    fireEvent.change(b!, { target: { value: 'toolcall' } });
    fireEvent.change(screen.getByTestId('experiment-repeats'), { target: { value: '2' } });
    await act(async () => fireEvent.click(screen.getByTestId('experiment-start')));
    await flush();
    expect(api.calls.find((c) => c.method === 'startExperiment')?.input).toEqual({
      name: 'gui',
      dataset: 'smoke',
      variants: [
        { name: 'A', agent: 'swe' },
        { name: 'B', agent: 'toolcall' },
      ],
      repeats: 2,
      scorers: [{ name: 'answer', kind: 'answer', match: 'contains' }],
      concurrency: 2,
    });
    expect(screen.getByTestId('experiment-report').getAttribute('data-state')).toBe('running');
    const reads = api.calls.filter((c) => c.method === 'getExperiment').length;
    done = 6;
    await act(async () => api.pushBatchProgress({ ...view().summary.progress! }));
    await flush();
    expect(api.calls.filter((c) => c.method === 'getExperiment').length).toBe(reads + 1);
    expect(screen.getByTestId('experiment-report').getAttribute('data-state')).toBe('complete');
    // another batch's progress is not this experiment's
    await act(async () => api.pushBatchProgress({ ...view().summary.progress!, batchId: 'other' }));
    await flush();
    expect(api.calls.filter((c) => c.method === 'getExperiment').length).toBe(reads + 1);
  });

  it('edits a dataset: items saved, a refused item said with its line, JSONL imported', async () => {
    const api = createMemoryApi();
    const dataset = {
      name: 'smoke',
      path: '/h/datasets/smoke.jsonl',
      version: 'sha256:aa',
      items: [{ id: 'q1', task: 'six times seven?', expected: '42' }],
      versions: [{ n: 1, version: 'sha256:aa', savedAt: 0 }],
    };
    api.override('getDataset', async () => dataset);
    let refuse = true;
    api.override('saveDataset', async (input) => {
      if (refuse)
        throw new AppApiError({
          code: 'invalid_input',
          message: 'bad',
          issues: [
            { path: 'items.2.workspace', line: 2, message: '"workspace": ws does not exist' },
          ],
        });
      return { ...dataset, items: input.items, version: 'sha256:bb' };
    });
    const { store } = await renderApp(api);
    act(() => store.getState().showExperiments({ kind: 'dataset', name: 'smoke' }));
    await flush();
    expect(window.location.hash).toBe('#/experiments/dataset/smoke');
    expect(screen.getByTestId('dataset-editor').getAttribute('data-version')).toBe('sha256:aa');
    fireEvent.click(screen.getByTestId('dataset-add-item'));
    const tasks = screen.getAllByTestId('dataset-item-task');
    fireEvent.change(tasks[1]!, { target: { value: 'fix the bug' } });
    fireEvent.change(screen.getAllByTestId('dataset-item-workspace')[1]!, {
      target: { value: 'ws' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('dataset-save')));
    await flush();
    expect(screen.getByTestId('dataset-error').textContent).toContain(
      'item 2: "workspace": ws does not exist',
    );
    refuse = false;
    fireEvent.change(screen.getAllByTestId('dataset-item-metadata')[1]!, {
      target: { value: '{"x":1}' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('dataset-save')));
    await flush();
    expect(api.calls.filter((c) => c.method === 'saveDataset').at(-1)?.input).toEqual({
      name: 'smoke',
      items: [
        { id: 'q1', task: 'six times seven?', expected: '42' },
        { id: 'item-2', task: 'fix the bug', workspace: 'ws', metadata: { x: 1 } },
      ],
    });
    expect(screen.getByTestId('dataset-editor').getAttribute('data-version')).toBe('sha256:bb');
    expect(screen.getByTestId('dataset-saved').textContent).toContain('sha256:bb');

    const file = new File(['{"task":"a"}\n{"id":"b","task":"b","expected":"1"}\n'], 'd.jsonl');
    await act(async () =>
      fireEvent.change(screen.getByTestId('dataset-import'), { target: { files: [file] } }),
    );
    await flush();
    expect(
      screen.getAllByTestId('dataset-item-task').map((t) => (t as HTMLTextAreaElement).value),
    ).toEqual(['a', 'b']);
  });

  it('adds the runs picked in the history to a dataset', async () => {
    const api = createMemoryApi();
    for (const runId of ['run-a', 'run-b', 'run-c'])
      api.history.set(runId, history(runId, [1].map(plainStep)));
    api.override('addRunsToDataset', async (input) => ({
      dataset: {
        name: input.name,
        path: `/h/datasets/${input.name}.jsonl`,
        version: 'sha256:cc',
        items: input.runIds.map((r) => ({ id: r, task: 't' })),
        versions: [],
      },
      added: input.runIds.map((r) => `run-${r}`),
    }));
    await renderApp(api);
    fireEvent.click(screen.getByTestId('history-compare-toggle'));
    for (const runId of ['run-a', 'run-c'])
      fireEvent.click(byData('history-compare-check', 'run-id', runId));
    await act(async () => fireEvent.click(screen.getByTestId('history-add-to-dataset')));
    await flush();
    fireEvent.change(screen.getByTestId('add-to-dataset-name'), { target: { value: 'picked' } });
    fireEvent.click(screen.getByTestId('add-to-dataset-answer'));
    await act(async () => fireEvent.click(screen.getByTestId('add-to-dataset-confirm')));
    await flush();
    expect(api.calls.find((c) => c.method === 'addRunsToDataset')?.input).toEqual({
      name: 'picked',
      runIds: ['run-a', 'run-c'],
      withAnswer: true,
    });
    expect(screen.getByTestId('add-to-dataset-result').textContent).toContain(
      'Added run-run-a, run-run-c to picked',
    );
  });

  it('adds the run shown in the run view to a dataset', async () => {
    const api = createMemoryApi();
    api.history.set('run-x', history('run-x', [1, 2].map(plainStep)));
    api.override('listDatasets', async () => [
      {
        name: 'smoke',
        path: '/h/datasets/smoke.jsonl',
        version: 'sha256:aa',
        items: 3,
        modifiedAt: 0,
      },
    ]);
    api.override('addRunsToDataset', async (input) => ({
      dataset: {
        name: input.name,
        path: '/h/d.jsonl',
        version: 'sha256:dd',
        items: [],
        versions: [],
      },
      added: ['run-runx'],
    }));
    const { store } = await renderApp(api);
    await act(async () => store.getState().selectRun('run-x'));
    await flush();
    await act(async () => fireEvent.click(screen.getByTestId('add-to-dataset')));
    await flush();
    // the first dataset is offered
    expect((screen.getByTestId('add-to-dataset-name') as HTMLInputElement).value).toBe('smoke');
    await act(async () => fireEvent.click(screen.getByTestId('add-to-dataset-confirm')));
    await flush();
    expect(api.calls.find((c) => c.method === 'addRunsToDataset')?.input).toEqual({
      name: 'smoke',
      runIds: ['run-x'],
      withAnswer: false,
    });
    expect(screen.getByTestId('add-to-dataset-result').textContent).toContain(
      'Added run-runx to smoke',
    );
  });

  it('draws a regression chart per scorer with a line per variant and the changed versions ringed', async () => {
    const point = (id: string, at: number, agent: string, mean: number) => ({
      experimentId: id,
      createdAt: at,
      datasetVersion: 'sha256:aa',
      agent,
      profile: null,
      mean,
      n: 4,
    });
    const trend: ExperimentTrendView = {
      datasetPath: '/h/datasets/d.jsonl',
      experiments: [1, 2, 3].map((n) => ({
        experimentId: `x-${n}`,
        name: `run ${n}`,
        createdAt: n,
        datasetVersion: 'sha256:aa',
      })),
      scorers: [
        {
          scorer: 'check',
          lines: [
            {
              variant: 'A',
              points: [
                point('x-1', 1, 'swe@1', 0.5),
                point('x-2', 2, 'swe@1', 0.6),
                point('x-3', 3, 'swe@2', 0.9),
              ],
            },
            { variant: 'B', points: [point('x-2', 2, 'swe', 0.4)] },
          ],
        },
        { scorer: 'judge', lines: [{ variant: 'A', points: [point('x-1', 1, 'swe@1', 0.7)] }] },
      ],
    };
    const api = createMemoryApi();
    api.override('getExperimentTrend', async () => trend);
    const { store } = await renderApp(api);
    act(() => store.getState().showExperiments({ kind: 'trend', datasetPath: trend.datasetPath }));
    await flush();
    expect(window.location.hash).toBe('#/experiments/trend/%2Fh%2Fdatasets%2Fd.jsonl');
    expect(
      screen.getAllByTestId('regression-chart').map((c) => c.getAttribute('data-scorer')),
    ).toEqual(['check', 'judge']);
    expect(
      screen
        .getAllByTestId('regression-line')
        .map((l) => [l.getAttribute('data-variant'), l.getAttribute('data-points')]),
    ).toEqual([
      ['A', '3'],
      ['B', '1'],
      ['A', '1'],
    ]);
    expect(screen.getAllByTestId('regression-change')).toHaveLength(1);
    expect(screen.getByTestId('regression-view').textContent).toContain(
      'A at #3: agent swe@1 → swe@2',
    );
  });
});

describe('the experiment form, dataset rows and the address', () => {
  it('turns the form into a request and says what is wrong with a field', () => {
    const form = { ...EMPTY_EXPERIMENT_FORM, name: 'x', dataset: 'd' };
    expect(experimentInputOf(form)).toMatchObject({ ok: true });
    expect(experimentInputOf({ ...form, repeats: '0' })).toMatchObject({
      error: expect.stringMatching(/Repeats/),
    });
    const judge = newScorerRow('judge', 'j');
    expect(experimentInputOf({ ...form, scorers: [judge] })).toMatchObject({
      error: 'Scorer 1 (j): pick the profile the judge runs on',
    });
    const traj = {
      ...newScorerRow('trajectory', 't'),
      fields: { metric: 'steps', max: '5' },
      threshold: '0.9',
    };
    expect(experimentInputOf({ ...form, scorers: [traj] })).toMatchObject({
      input: {
        scorers: [{ name: 't', kind: 'trajectory', metric: 'steps', max: 5, threshold: 0.9 }],
      },
    });
    expect(
      experimentInputOf({ ...form, variants: [form.variants[0]!, { ...form.variants[0]! }] }),
    ).toMatchObject({ error: expect.stringMatching(/used twice/) });
  });

  it('reads JSONL with every problem, and refuses bad metadata', () => {
    expect(importJsonl('{"task":"a"}\n{"task":""}\nnope\n')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/line 2: .*\nline 3: /),
    });
    expect(
      itemsOf([{ id: '', task: 't', workspace: '', expected: '', check: '', metadata: '[1]' }]),
    ).toMatchObject({ error: expect.stringMatching(/Item 1: metadata/) });
  });

  it('names the page in the address and reads it back', () => {
    for (const page of [
      { kind: 'list' },
      { kind: 'report', experimentId: 'x-20261202-abc' },
      { kind: 'dataset', name: 'smoke' },
      { kind: 'trend', datasetPath: '/a b/d.jsonl' },
    ] as const) {
      const hash = formatExperimentsRoute(page);
      const parts = hash.split('/').slice(2).map(decodeURIComponent);
      expect(experimentsRouteOf(parts)).toEqual(page);
    }
  });
});
