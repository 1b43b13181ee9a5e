import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BatchGrid, BatchProgress } from '@shared/ipc';
import { batchGrid } from '@shared/batch-grid';
import type { BatchPlan } from '@shared/domain/batch';
import type { RunSummary } from '@shared/domain/runs';
import { configView, llmFields, profileView } from '../../testing/config-fixture';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { batchInputOf, EMPTY_BATCH_FORM, progressText } from './batch-form';

const progress = (done: number, running: number, extra: Partial<BatchProgress> = {}) => ({
  batchId: 'b-test',
  total: 2,
  done,
  running,
  queued: 2 - done - running,
  isStopped: false,
  isComplete: done === 2,
  ...extra,
});

function grid(done: number): BatchGrid {
  const run = (profileIndex: number) => ({
    key: `t0-p${profileIndex}-r0`,
    repeat: 0,
    runId: `run-${profileIndex}`,
    status: profileIndex < done ? ('done' as const) : ('running' as const),
    ...(profileIndex < done
      ? {
          outcome: 'finished' as const,
          verdict: { kind: 'finished' as const, label: 'finished', tone: 'good' as const },
          check: profileIndex === 0,
        }
      : {}),
    steps: 3,
    tokens: 100,
    durationMs: 1_000,
    stuck: 0,
  });
  const cell = (profileIndex: number) => ({
    taskIndex: 0,
    profileIndex,
    runs: [run(profileIndex)],
    ended: profileIndex < done ? 1 : 0,
    finished: profileIndex < done ? 1 : 0,
    verdicts: profileIndex < done ? { finished: 1 } : {},
    checksPassed: profileIndex === 0 && done > 0 ? 1 : 0,
    checksRun: profileIndex < done ? 1 : 0,
    steps: 3,
    tokens: 100,
    durationMs: 1_000,
    stuck: 0,
  });
  return {
    batchId: 'b-test',
    agent: 'swe',
    tasks: [{ task: 'fix the bug' }],
    profiles: ['fast', 'slow'],
    cells: [[cell(0), cell(1)]],
    progress: progress(done, 2 - done),
  };
}

describe('batch form', () => {
  it('reads one task a line (JSON lines too), the profiles checked, and refuses bad numbers', () => {
    const ok = batchInputOf({
      ...EMPTY_BATCH_FORM,
      tasks: 'fix the bug\n\n{"task":"add tests","check":"make test"}\n',
      profiles: ['fast', 'slow'],
      repeat: '2',
      concurrency: '3',
      check: 'true',
    });
    expect(ok).toEqual({
      ok: true,
      input: {
        agent: 'swe',
        tasks: [{ task: 'fix the bug' }, { task: 'add tests', check: 'make test' }],
        profiles: ['fast', 'slow'],
        repeat: 2,
        concurrency: 3,
        check: 'true',
      },
    });
    expect(batchInputOf({ ...EMPTY_BATCH_FORM, tasks: '' })).toMatchObject({ ok: false });
    expect(batchInputOf({ ...EMPTY_BATCH_FORM, tasks: 'x', repeat: '0' })).toMatchObject({
      error: expect.stringMatching(/Repeat/),
    });
    expect(batchInputOf({ ...EMPTY_BATCH_FORM, tasks: '{bad' })).toMatchObject({
      error: expect.stringMatching(/Line 1/),
    });
    expect(progressText({ ...progress(1, 1), etaMs: 65_000 })).toBe(
      '1 of 2 done, 1 running, 0 queued, about 1 min 5 s left',
    );
  });
});

describe('the Batch view', () => {
  it('starts a batch, fills the grid as progress arrives, opens a run, compares, and stops', async () => {
    const config = configView();
    config.profiles = ['fast', 'slow'];
    config.profileViews = [
      ...config.profileViews,
      profileView('fast', llmFields({ model: 'm-fast' })),
      profileView('slow', llmFields({ model: 'm-slow' })),
    ];
    const api = createMemoryApi({ config });
    let done = 0;
    api.override('getBatch', async () => grid(done));
    await renderApp(api);
    fireEvent.click(screen.getByTestId('nav-batch'));
    fireEvent.change(screen.getByTestId('batch-tasks'), { target: { value: 'fix the bug' } });
    // the profiles are picked from the list, each with the model it runs
    expect(screen.getByTestId('batch-profile-fast').parentElement?.textContent).toContain('m-fast');
    fireEvent.click(screen.getByTestId('batch-profile-slow'));
    fireEvent.click(screen.getByTestId('batch-profile-fast'));
    await act(async () => fireEvent.click(screen.getByTestId('batch-start')));
    await flush();
    expect(api.calls.find((c) => c.method === 'startBatch')?.input).toMatchObject({
      tasks: [{ task: 'fix the bug' }],
      profiles: ['fast', 'slow'],
    });
    expect(screen.getByTestId('batch-view').getAttribute('data-batch-id')).toBe('b-test');
    expect(screen.getByTestId('batch-progress').getAttribute('data-running')).toBe('2');
    expect(screen.getAllByTestId('batch-run').map((el) => el.getAttribute('data-status'))).toEqual([
      'running',
      'running',
    ]);

    // a run ended: the push makes the view read the grid again
    done = 1;
    await act(async () => api.pushBatchProgress(progress(1, 1)));
    await flush();
    const runs = screen.getAllByTestId('batch-run');
    expect(runs.map((el) => el.getAttribute('data-status'))).toEqual(['done', 'running']);
    expect(runs[0]?.getAttribute('data-check')).toBe('pass');
    expect(screen.getByTestId('batch-compare').hasAttribute('disabled')).toBe(true);

    await act(async () => fireEvent.click(screen.getByTestId('batch-stop')));
    expect(api.calls.find((c) => c.method === 'stopBatch')?.input).toEqual({ batchId: 'b-test' });

    done = 2;
    await act(async () => api.pushBatchProgress(progress(2, 0)));
    await flush();
    expect(screen.getByTestId('batch-progress').getAttribute('data-state')).toBe('complete');
    await act(async () => fireEvent.click(screen.getByTestId('batch-compare')));
    await flush();
    expect(
      api.calls.find((c) => c.method === 'compareRuns' || c.method === 'diffRuns'),
    ).toBeTruthy();

    fireEvent.click(screen.getByTestId('nav-batch'));
    await flush();
    await act(async () => fireEvent.click(screen.getAllByTestId('batch-run')[0]!));
    await flush();
    expect(api.calls.some((c) => c.method === 'getRun')).toBe(true);
  });
});

describe('a batch cell (issue 25 item 6)', () => {
  const plan: BatchPlan = {
    version: 1,
    batchId: 'b-test',
    createdAt: 0,
    agent: 'swe',
    tasks: [{ task: 'run a failing command' }],
    profiles: [null],
    repeat: 2,
    concurrency: 1,
    items: [
      { key: 't0-p0-r0', taskIndex: 0, profileIndex: 0, repeat: 0 },
      { key: 't0-p0-r1', taskIndex: 0, profileIndex: 0, repeat: 1 },
    ],
  };
  const summary = (runId: string, toolErrors: number): RunSummary => ({
    runId,
    agent: 'swe',
    task: 'run a failing command',
    model: 'm',
    startedAt: 0,
    finishedAt: 1_000,
    state: 'FINISHED',
    outcome: 'finished',
    steps: 1,
    maxSteps: 10,
    usage: { prompt: 60, completion: 14 },
    health: { toolCalls: 1, toolErrors, stuck: 0, duplicates: 0, retries: 0 },
  });
  const runs = new Map([
    ['run-a', summary('run-a', 1)],
    ['run-b', summary('run-b', 0)],
  ]);

  it("labels each chip with the history's verdict and shows one run's figures, not the sum", async () => {
    const api = createMemoryApi();
    api.override('getBatch', async () =>
      batchGrid(
        plan,
        {
          version: 1,
          batchId: 'b-test',
          updatedAt: 0,
          items: {
            't0-p0-r0': { status: 'done', runId: 'run-a' },
            't0-p0-r1': { status: 'done', runId: 'run-b' },
          },
        },
        (id) => runs.get(id),
        'swe',
      ),
    );
    api.override('listBatches', async () => []);
    await renderApp(api);
    fireEvent.click(screen.getByTestId('nav-batch'));
    fireEvent.change(screen.getByTestId('batch-tasks'), {
      target: { value: 'run a failing command' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('batch-start')));
    await flush();
    const chips = screen.getAllByTestId('batch-run');
    expect(chips.map((c) => c.textContent)).toEqual(['finished with 1 tool error', 'finished']);
    expect(chips.map((c) => c.getAttribute('data-verdict'))).toEqual([
      'finished_with_errors',
      'finished',
    ]);
    expect(chips[0]?.className).toContain('tone-warn');
    expect(chips[0]?.getAttribute('title')).toContain('repeat 1: 1 step · 74 tok · 1 s');
    const figures = screen.getByTestId('batch-figures');
    expect(figures.textContent).toContain('per run 1 step · 74 tok · 1 s (mean of 2)');
    expect(figures.textContent).not.toContain('148');
    expect(figures.querySelector('[title]')?.getAttribute('title')).toBe(
      'total of 2 runs: 2 steps · 148 tok · 2 s',
    );
  });
});
