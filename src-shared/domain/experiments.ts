/**
 * The contract's datasets and experiments (issue 31, docs/experiments.md): what the
 * Experiments page asks for and gets. The report itself is `ExperimentReport`, the one
 * computation the CLI also shows (src-shared/experiments/experiment-report.ts).
 */
import type { BatchProgress } from './batch';
import type { DatasetItem, DatasetProblem } from '../experiments/dataset';
import type { ExperimentReport, ExperimentVariant } from '../experiments/experiment-types';
import type { ScorerSpec } from '../experiments/scorer-types';
import type { Interval } from '../experiments/stats';

export type { DatasetItem, DatasetProblem, ExperimentReport, ExperimentVariant, ScorerSpec };

/** A dataset of the app's own folder (`WORKBENCH_HOME/datasets/NAME.jsonl`). */
export interface DatasetListEntry {
  name: string;
  path: string;
  /** the content hash; null when the file does not load (its problems say why) */
  version: string | null;
  items: number;
  /** the first problems of a file that does not load (edited by hand) */
  problems?: DatasetProblem[];
  modifiedAt: number;
}

/** One saved version of a dataset's lines (`datasets/.versions/NAME/N-HASH.jsonl`). */
export interface DatasetVersionEntry {
  n: number;
  version: string;
  savedAt: number;
}

export interface DatasetView {
  name: string;
  path: string;
  version: string;
  items: DatasetItem[];
  /** every version saved from the app, newest first */
  versions: DatasetVersionEntry[];
}

export interface DatasetSaveInput {
  name: string;
  items: DatasetItem[];
}

/** "Add to dataset": runs of the history become items (created when the dataset is new). */
export interface DatasetAddRunsInput {
  name: string;
  runIds: string[];
  /** each run's final answer becomes the item's expected one */
  withAnswer?: boolean;
}

export interface DatasetAddRunsResult {
  dataset: DatasetView;
  /** the ids the new items got */
  added: string[];
}

/** An experiment started from the GUI: written as an experiment file, then run as one. */
export interface ExperimentStartInput {
  name: string;
  /** a dataset of the app's folder, by name */
  dataset: string;
  variants: { name: string; agent: string; profile?: string }[];
  repeats: number;
  scorers: ScorerSpec[];
  concurrency: number;
  maxSteps?: number;
}

export interface ExperimentSummary {
  experimentId: string;
  name: string;
  createdAt: number;
  batchId: string;
  datasetPath: string;
  datasetVersion: string;
  variants: ExperimentVariant[];
  progress?: BatchProgress;
}

export interface ExperimentView {
  summary: ExperimentSummary;
  report: ExperimentReport;
}

/** One experiment's point on a regression chart: a variant's mean on a scorer. */
export interface TrendPoint {
  experimentId: string;
  createdAt: number;
  datasetVersion: string;
  /** the variant's agent spec and profile then (a change of either is marked) */
  agent: string;
  profile: string | null;
  mean: number;
  interval?: Interval;
  n: number;
}

/** The experiments of one dataset over time: per scorer, a line per variant name. */
export interface ExperimentTrendView {
  datasetPath: string;
  experiments: { experimentId: string; name: string; createdAt: number; datasetVersion: string }[];
  scorers: { scorer: string; lines: { variant: string; points: TrendPoint[] }[] }[];
}

/** The contract's channels for these (spread into REQUEST_CHANNELS and API_METHODS). */
export const EXPERIMENT_METHODS = {
  listDatasets: 'datasets:list',
  getDataset: 'datasets:get',
  saveDataset: 'datasets:save',
  addRunsToDataset: 'datasets:add-runs',
  listExperiments: 'experiments:list',
  getExperiment: 'experiments:get',
  startExperiment: 'experiments:start',
  resumeExperiment: 'experiments:resume',
  stopExperiment: 'experiments:stop',
  getExperimentTrend: 'experiments:trend',
} as const;
export const EXPERIMENT_CHANNELS = [
  'datasets:list',
  'datasets:get',
  'datasets:save',
  'datasets:add-runs',
  'experiments:list',
  'experiments:get',
  'experiments:start',
  'experiments:resume',
  'experiments:stop',
  'experiments:trend',
] as const;
