/**
 * The datasets and experiments entries of the contract (issue 31) over the real WebSocket
 * transport with the UI's own adapter: a dataset built from runs of the history, edited
 * (every save a version, a bad item refused with its line), an experiment started on it
 * with its progress pushed, its report (the service's own computation), the list, the
 * regression trend, stop and resume, and the typed refusals.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchProgress } from '@shared/ipc';
import { collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

const CONFIG = '[llm]\nmodel = "m"\n[llm.fast]\nmodel = "fast"\n';

describe('contract over WebSocket: datasets:* and experiments:*', () => {
  it('builds a dataset from runs, edits it, runs an experiment on it and reports it', async () => {
    const { api, runtime, home } = await serve(CONFIG);
    const events = collect(api);
    const runIds: string[] = [];
    for (const steps of [2, 3, 2]) {
      const { runId } = await api.startRun({ task: `steps: ${steps}`, agent: 'toolcall' });
      await until(() => finishedOf(events, runId));
      runIds.push(runId);
    }
    expect(await api.listDatasets({})).toEqual([]);
    const added = await api.addRunsToDataset({ name: 'smoke', runIds, withAnswer: true });
    expect(added.added).toHaveLength(3);
    expect(added.dataset.items.map((i) => [i.task, i.expected])).toEqual([
      ['steps: 2', 'done'],
      ['steps: 3', 'done'],
      ['steps: 2', 'done'],
    ]);
    expect(added.dataset.items[0]?.metadata).toMatchObject({ fromRun: runIds[0] });
    expect(added.dataset.version).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(added.dataset.versions.map((v) => v.n)).toEqual([1]);
    expect(added.dataset.path).toBe(join(home, 'datasets', 'smoke.jsonl'));

    // an edit is a new version; the old one is kept
    const items = added.dataset.items.map((i, n) => (n === 2 ? { ...i, task: 'steps: 4' } : i));
    const saved = await api.saveDataset({ name: 'smoke', items });
    expect(saved.version).not.toBe(added.dataset.version);
    expect(saved.versions.map((v) => [v.n, v.version])).toEqual([
      [2, saved.version],
      [1, added.dataset.version],
    ]);
    expect(readFileSync(saved.path, 'utf8')).toContain('"task":"steps: 4"');
    // a bad item is refused with its line and key; the file keeps what it had
    await expect(
      api.saveDataset({
        name: 'smoke',
        items: [...items, { id: 'bad', task: 't', workspace: 'nope' }],
      }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'items.4.workspace', line: 4 }],
    });
    expect((await api.getDataset({ name: 'smoke' })).version).toBe(saved.version);
    expect(await api.listDatasets({})).toMatchObject([
      { name: 'smoke', version: saved.version, items: 3 },
    ]);

    const pushes: BatchProgress[] = [];
    api.onBatchProgress((p) => pushes.push(p));
    const started = await api.startExperiment({
      name: 'gui smoke',
      dataset: 'smoke',
      variants: [
        { name: 'A', agent: 'toolcall' },
        { name: 'B', agent: 'toolcall', profile: 'fast' },
      ],
      repeats: 2,
      scorers: [{ name: 'short', kind: 'trajectory', metric: 'steps', max: 3 }],
      concurrency: 3,
    });
    expect(started).toMatchObject({ name: 'gui smoke', datasetVersion: saved.version });
    await until(() => pushes.find((p) => p.batchId === started.batchId && p.isComplete));
    expect(pushes.some((p) => p.batchId === started.batchId && p.running > 0)).toBe(true);
    // the runs' facts were stored as they ended, before any report was asked for, so the
    // report's first open reads one file (docs/experiments.md "The runs' facts file")
    const factsPath = join(home, 'experiments', 'facts', `${started.experimentId}.json`);
    const storedRuns = () =>
      existsSync(factsPath)
        ? (JSON.parse(readFileSync(factsPath, 'utf8')) as { runs: { runId: string }[] }).runs
        : [];
    await until(() => storedRuns().length === 12);
    // the experiment file it was run from is kept beside the records (CLI-runnable)
    const record = runtime.experiments.record(started.experimentId);
    expect(existsSync(record.file)).toBe(true);
    expect(readFileSync(record.file, 'utf8')).toContain('metric = "steps"');

    const view = await api.getExperiment({ experimentId: started.experimentId });
    expect(view.summary.progress).toMatchObject({ done: 12, total: 12 });
    // the one computation the CLI shows
    expect(view.report).toEqual(
      JSON.parse(JSON.stringify(runtime.experiments.report(started.experimentId))),
    );
    expect(view.report.variants.map((v) => [v.variant.name, v.runs])).toEqual([
      ['A', 6],
      ['B', 6],
    ]);
    expect(view.report.cells.flat().flatMap((c) => c.runs)).toHaveLength(12);
    expect(await api.listExperiments({})).toMatchObject([
      { experimentId: started.experimentId, batchId: started.batchId },
    ]);

    const trend = await api.getExperimentTrend({ datasetPath: saved.path });
    expect(trend.experiments.map((e) => e.experimentId)).toEqual([started.experimentId]);
    expect(trend.scorers.map((s) => [s.scorer, s.lines.map((l) => l.variant)])).toEqual([
      ['short', ['A', 'B']],
    ]);

    // a complete experiment: nothing to stop; a resume runs nothing again
    expect(await api.stopExperiment({ experimentId: started.experimentId })).toEqual({
      stopped: false,
    });
    await api.resumeExperiment({ experimentId: started.experimentId });
    await until(
      () => pushes.filter((p) => p.batchId === started.batchId && p.isComplete).length > 1,
    );
    const again = await api.getExperiment({ experimentId: started.experimentId });
    expect(again.report.cells).toEqual(view.report.cells);

    // a run removed from the history is no longer counted (its kept facts are dropped)
    const removed = view.report.cells[0]![1]!.runs[0]!.runId;
    await api.deleteRun({ runId: removed });
    const after = await api.getExperiment({ experimentId: started.experimentId });
    expect(after.report.cells.flat().flatMap((c) => c.runs.map((r) => r.runId))).not.toContain(
      removed,
    );
    expect(after.report.variants[1]?.runs).toBe(5);
    expect(storedRuns().map((r) => r.runId)).not.toContain(removed);
    expect(storedRuns()).toHaveLength(11);
  });

  it('refuses what cannot run, each with a typed error', async () => {
    const { api, home } = await serve(CONFIG);
    const start = {
      name: 'e',
      dataset: 'none',
      variants: [{ name: 'A', agent: 'toolcall' }],
      repeats: 1,
      scorers: [{ name: 's', kind: 'shell' as const, command: 'true' }],
      concurrency: 1,
    };
    await expect(api.startExperiment(start)).rejects.toMatchObject({ code: 'not_found' });
    await api.saveDataset({ name: 'd', items: [{ id: 'a', task: 'steps: 2' }] });
    await expect(
      api.startExperiment({
        ...start,
        dataset: 'd',
        variants: [{ name: 'A', agent: 'toolcall', profile: 'nope' }],
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/llm\.nope/) });
    await expect(
      api.startExperiment({
        ...start,
        dataset: 'd',
        scorers: [{ name: 's', kind: 'shell', command: '' }],
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/check/) });
    await expect(api.getExperiment({ experimentId: 'x-none' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(api.getDataset({ name: 'none' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(api.addRunsToDataset({ name: 'd', runIds: ['run-none'] })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/run-none/),
    });

    // a run whose history names a folder the gate refuses, or an imported run's folder:
    // nothing is copied into the dataset
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 2', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const withFolder = (content: string, id: string, path: string) =>
      content
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => {
          const e = JSON.parse(l) as Record<string, unknown>;
          return JSON.stringify({
            ...e,
            runId: id,
            ...(e.type === 'run.started' ? { workspace: { path, mode: 'copy' } } : {}),
          });
        })
        .join('\n');
    const { content } = await api.exportRun({ runId });
    const imported = await api.importRun({ content: withFolder(content, 'run-elsewhere', home) });
    await expect(
      api.addRunsToDataset({ name: 'd', runIds: [imported.summary.runId] }),
    ).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/imported/) });
    writeFileSync(
      join(home, 'runs', 'run-root.jsonl'),
      `${withFolder(content, 'run-root', '/')}\n`,
    );
    await expect(api.addRunsToDataset({ name: 'd', runIds: ['run-root'] })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/run-root/),
    });
    expect((await api.getDataset({ name: 'd' })).items).toHaveLength(1);
  });
});
