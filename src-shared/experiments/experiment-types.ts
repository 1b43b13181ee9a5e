/**
 * An experiment (issue 31, docs/experiments.md): a dataset's items x variants (an agent
 * spec and a model profile) x repeats, scored by its scorers, run by the batch engine.
 * The record says what was run (and which dataset version); the report is computed from
 * the runs' histories every time, never stored.
 */
import type { VerdictKind } from '../run-outcome';
import type { PairedTest, Interval } from './stats';
import type { ScorerSpec } from './scorer-types';
import type { TrajectoryFacts } from './run-facts';

export interface ExperimentVariant {
  name: string;
  /** an agent spec passed through to the batch engine (`swe`; `name@version` once agents are files) */
  agent: string;
  /** the `[llm.NAME]` profile; null: the agent's own */
  profile: string | null;
}

export interface ExperimentRecord {
  version: 1;
  experimentId: string;
  name: string;
  /** the experiment file it was run from */
  file: string;
  createdAt: number;
  dataset: {
    path: string;
    /** the content hash of the dataset (its lines, task files and workspace folders) */
    version: string;
    items: { id: string; task: string }[];
  };
  variants: ExperimentVariant[];
  repeats: number;
  scorers: ScorerSpec[];
  /** the batch that runs it (its plan and state: which run fills which item) */
  batchId: string;
}

/** What the report reads of one run: its scores and its trajectory. */
export interface ExperimentRunFacts {
  runId: string;
  itemIndex: number;
  variantIndex: number;
  repeat: number;
  verdict?: VerdictKind;
  /** scorer name -> score in [0, 1] (a scorer that did not record counts 0) */
  scores: Record<string, number>;
  trajectory: TrajectoryFacts;
}

export interface Distribution {
  n: number;
  mean: number;
  min: number;
  p50: number;
  p90: number;
  max: number;
}

export interface ScorerSummary {
  scorer: string;
  /** runs scored */
  n: number;
  mean: number;
  /** Wilson when every score is 0 or 1, else a seeded percentile bootstrap */
  interval?: Interval;
  method: 'wilson' | 'bootstrap';
  /** runs at or above the threshold */
  passes: number;
  /** over the items with every repeat done: k = 1 .. repeats */
  passAtK: { k: number; value: number }[];
  passHatK: { k: number; value: number }[];
}

export interface VariantReport {
  variant: ExperimentVariant;
  runs: number;
  scorers: ScorerSummary[];
  /** null when a run's model has no known price */
  costUsd: Distribution | null;
  tokens: Distribution | null;
  durationMs: Distribution | null;
  steps: Distribution | null;
}

export interface ReportCell {
  itemIndex: number;
  variantIndex: number;
  runs: { runId: string; repeat: number; scores: Record<string, number>; verdict?: VerdictKind }[];
  /** scorer -> mean over the cell's runs */
  means: Record<string, number>;
}

export interface FlippedItem {
  itemIndex: number;
  itemId: string;
  a: number;
  b: number;
  /** the first repeat's runs of each side: the compare opens them */
  aRunId?: string;
  bRunId?: string;
}

export interface PairedComparison {
  scorer: string;
  a: number;
  b: number;
  /** items with every repeat done on both sides */
  items: number;
  test: PairedTest;
  /** the test said in words ("not distinguishable from noise (p = 0.375)") */
  text: string;
  /** items that pass on one side and not the other (mean over repeats vs the threshold) */
  flipped: FlippedItem[];
}

export interface FlakyItem {
  itemIndex: number;
  itemId: string;
  variantIndex: number;
  scorer: string;
  passes: number;
  runs: number;
}

export interface ExperimentReport {
  experimentId: string;
  name: string;
  createdAt: number;
  dataset: { path: string; version: string; items: { id: string; task: string }[] };
  repeats: number;
  scorers: string[];
  done: number;
  total: number;
  variants: VariantReport[];
  /** item x variant */
  cells: ReportCell[][];
  /** each variant against the first, per scorer */
  comparisons: PairedComparison[];
  flaky: FlakyItem[];
}
