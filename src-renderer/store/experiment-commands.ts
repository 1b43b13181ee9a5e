/**
 * The Experiments page's requests (docs/experiments.md): datasets, experiments, their
 * reports and trends, and the batch progress pushes an experiment's run makes.
 */
import type { AppApi } from '@shared/ipc';
import { EXPERIMENT_METHODS } from '@shared/domain/experiments';

export type ExperimentCommands = Pick<AppApi, keyof typeof EXPERIMENT_METHODS | 'onBatchProgress'>;

export function createExperimentCommands(api: AppApi): ExperimentCommands {
  const commands: Partial<Record<keyof ExperimentCommands, unknown>> = {
    onBatchProgress: (listener: Parameters<AppApi['onBatchProgress']>[0]) =>
      api.onBatchProgress(listener),
  };
  for (const method of Object.keys(EXPERIMENT_METHODS) as (keyof typeof EXPERIMENT_METHODS)[])
    commands[method] = (input: never) => (api[method] as (i: never) => unknown)(input);
  return commands as ExperimentCommands;
}
