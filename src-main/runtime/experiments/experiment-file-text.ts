/**
 * An experiment started from the GUI is written as an experiment file first
 * (`WORKBENCH_HOME/experiments/files/NAME-STAMP.toml`) and then started from it, the way
 * `workbench experiment run FILE` does: one validation, and the record names a file
 * anyone can run again from the command line.
 */
import { stringify } from 'smol-toml';
import type { ExperimentStartInput } from '@shared/domain/experiments';
import type { ScorerSpec } from '@shared/experiments/scorer-types';

export function experimentFileText(input: ExperimentStartInput, datasetPath: string): string {
  const table = {
    name: input.name,
    dataset: datasetPath,
    repeats: input.repeats,
    concurrency: input.concurrency,
    ...(input.maxSteps !== undefined ? { max_steps: input.maxSteps } : {}),
    variants: input.variants.map((v) => ({
      name: v.name,
      agent: v.agent,
      ...(v.profile !== undefined ? { profile: v.profile } : {}),
    })),
    scorers: input.scorers.map(scorerTable),
  };
  return `# written by the Experiments page; run again with: workbench experiment run THIS_FILE\n${stringify(table)}\n`;
}

/** A scorer as its TOML table (the file's snake_case keys; an empty command left out). */
function scorerTable(spec: ScorerSpec): Record<string, unknown> {
  const base = {
    name: spec.name,
    kind: spec.kind,
    ...(spec.threshold !== undefined ? { threshold: spec.threshold } : {}),
  };
  switch (spec.kind) {
    case 'shell':
      return { ...base, ...(spec.command.trim() !== '' ? { command: spec.command } : {}) };
    case 'answer':
      return {
        ...base,
        match: spec.match,
        ...(spec.expected !== undefined ? { expected: spec.expected } : {}),
        ...(spec.schema !== undefined ? { schema: spec.schema } : {}),
        ...(spec.tolerance !== undefined ? { tolerance: spec.tolerance } : {}),
        ...(spec.ignoreCase !== undefined ? { ignore_case: spec.ignoreCase } : {}),
      };
    case 'file':
      return {
        ...base,
        path: spec.path,
        ...(spec.equals !== undefined ? { equals: spec.equals } : {}),
      };
    case 'trajectory':
      return { ...base, metric: spec.metric, max: spec.max };
    case 'judge':
      return { ...base, profile: spec.profile, rubric: spec.rubric };
  }
}
