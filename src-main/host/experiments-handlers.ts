/**
 * The contract's datasets and experiments requests (issue 31, docs/experiments.md), for
 * the desktop window and `workbench serve` alike. Datasets are the app's own folder's
 * (`WORKBENCH_HOME/datasets`); an experiment started here is written as an experiment
 * file and run through the same service as `workbench experiment run`, and its report is
 * the same computation (`ExperimentService.report`). Progress is the batch's own
 * `batch:progress` push: an experiment is a batch.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestChannel } from '@shared/ipc';
import type { RunEvent } from '@shared/events';
import type { ExperimentSummary } from '@shared/domain/experiments';
import { DatasetError } from '@shared/experiments/dataset';
import { experimentTrend } from '@shared/experiments/experiment-trend';
import type { ExperimentReport } from '@shared/experiments/experiment-types';
import { BatchPlanError } from '../runtime/batch/batch-plan';
import { BatchConflictError } from '../runtime/batch/batch-service';
import { BatchNotFoundError } from '../runtime/batch/batch-store';
import { ConfigError } from '../runtime/config/load';
import { admitStartingFolder as admitFolder } from '../runtime/experiments/starting-folder';
import { DatasetAddError } from '../runtime/experiments/dataset-add';
import { DatasetNotFoundError, DatasetStore } from '../runtime/experiments/dataset-store';
import { ExperimentFileError } from '../runtime/experiments/experiment-file';
import { experimentFileText } from '../runtime/experiments/experiment-file-text';
import {
  ExperimentNotFoundError,
  type ExperimentService,
} from '../runtime/experiments/experiment-service';
import { FileReadError } from '../runtime/util/read-regular-file';
import type { Runtime } from '../runtime/runtime';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type ExperimentChannel = Extract<RequestChannel, `datasets:${string}` | `experiments:${string}`>;

export function createExperimentsHandlers(runtime: Runtime): Pick<Handlers, ExperimentChannel> {
  const { experiments, services } = runtime;
  const datasets = new DatasetStore(join(services.home, 'datasets'));
  const summary = (experimentId: string) => summaryOf(experiments, experimentId);
  return {
    'datasets:list': async () => datasets.list(),
    'datasets:get': async ({ name }) => guard(() => datasets.get(name)),
    'datasets:save': async ({ name, items }) => guard(() => datasets.save(name, items)),
    'datasets:add-runs': async ({ name, runIds, withAnswer }) => {
      const runs: { runId: string; events: RunEvent[] }[] = [];
      for (const runId of runIds) {
        const events = runtime.runs.history.read(runId)?.events;
        if (!events) throw new HandlerError('not_found', `No run "${runId}" in the history`);
        await admitStartingFolder(runtime, runId, events);
        runs.push({ runId, events });
      }
      return guard(() => datasets.addRuns(name, runs, withAnswer === true));
    },
    'experiments:list': async () =>
      experiments.list().flatMap((entry) => {
        try {
          return [summary(entry.experimentId)];
        } catch {
          return [];
        }
      }),
    'experiments:get': async ({ experimentId }) =>
      guard(() => ({ summary: summary(experimentId), report: experiments.report(experimentId) })),
    'experiments:start': async (input) =>
      guard(() => {
        const dataset = datasets.get(input.dataset);
        const dir = join(services.home, 'experiments', 'files');
        mkdirSync(dir, { recursive: true });
        const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..+$/, '');
        const file = join(dir, `${input.name.replace(/[^A-Za-z0-9._-]/g, '_')}-${stamp}.toml`);
        writeFileSync(file, experimentFileText(input, dataset.path), { mode: 0o644 });
        const started = experiments.start(file);
        // the batch reports its end through batch:progress; a failure is its runs' to tell
        started.done.catch(() => undefined);
        return summary(started.experimentId);
      }),
    'experiments:resume': async ({ experimentId }) =>
      guard(() => {
        experiments.resume(experimentId).done.catch(() => undefined);
        return summary(experimentId);
      }),
    'experiments:stop': async ({ experimentId }) =>
      guard(() => ({ stopped: experiments.stop(experimentId) })),
    'experiments:trend': async ({ datasetPath }) =>
      guard(() => {
        const reports: ExperimentReport[] = [];
        for (const entry of experiments.list())
          if (entry.datasetPath === datasetPath)
            reports.push(experiments.report(entry.experimentId));
        return experimentTrend(datasetPath, reports);
      }),
  };
}

/** The app's side of the gate (runtime/experiments/starting-folder.ts): typed refusals. */
async function admitStartingFolder(
  runtime: Runtime,
  runId: string,
  events: readonly RunEvent[],
): Promise<void> {
  let settings;
  try {
    settings = runtime.services.loadConfig().sandbox;
  } catch (error) {
    if (error instanceof ConfigError)
      throw new HandlerError('conflict', `The run cannot be added: ${error.message}`);
    throw error;
  }
  const isImported = runtime.runs.get(runId)?.isImported === true;
  try {
    await admitFolder({ runId, events, isImported }, { home: runtime.services.home, settings });
  } catch (error) {
    if (error instanceof DatasetAddError) throw new HandlerError('forbidden', error.message);
    throw error;
  }
}

function summaryOf(experiments: ExperimentService, experimentId: string): ExperimentSummary {
  const record = experiments.record(experimentId);
  const progress = experiments.progress(record);
  return {
    experimentId,
    name: record.name,
    createdAt: record.createdAt,
    batchId: record.batchId,
    datasetPath: record.dataset.path,
    datasetVersion: record.dataset.version,
    variants: record.variants,
    ...(progress ? { progress } : {}),
  };
}

function guard<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof HandlerError) throw error;
    if (error instanceof DatasetError)
      throw new HandlerError(
        'invalid_input',
        error.message,
        error.problems.map((p) => ({
          path: `items.${p.line}${p.key ? `.${p.key}` : ''}`,
          message: p.message,
          line: p.line,
        })),
      );
    if (error instanceof DatasetNotFoundError || error instanceof ExperimentNotFoundError)
      throw new HandlerError('not_found', error.message);
    if (error instanceof BatchNotFoundError) throw new HandlerError('not_found', error.message);
    if (error instanceof BatchConflictError) throw new HandlerError('conflict', error.message);
    if (error instanceof ConfigError)
      throw new HandlerError('conflict', `The experiment cannot start: ${error.message}`);
    if (
      error instanceof ExperimentFileError ||
      error instanceof DatasetAddError ||
      error instanceof BatchPlanError ||
      error instanceof FileReadError
    )
      throw new HandlerError('invalid_input', error.message);
    throw error;
  }
}
