/**
 * `workbench dataset check FILE.jsonl` (every problem with its line and key; the version)
 * and `workbench dataset add FILE.jsonl RUN... [--answer]` ("Add to dataset" from runs
 * of the history; docs/experiments.md).
 */
import { DatasetError } from '@shared/experiments/dataset';
import { createRuntime } from '../../runtime/runtime';
import { loadDataset } from '../../runtime/experiments/dataset-file';
import { addRunsToDataset, DatasetAddError } from '../../runtime/experiments/dataset-add';
import { admitStartingFolder } from '../../runtime/experiments/starting-folder';
import { FileReadError } from '../../runtime/util/read-regular-file';
import { parseCommandArgs } from '../parse-args';
import { EXIT, UsageError } from '../usage-error';
import { resolveRunRef } from '../run-ref';

export async function datasetCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('dataset', args, {
    answer: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const [sub, file, ...rest] = positionals;
  try {
    if (sub === 'check') {
      if (file === undefined || rest.length > 0)
        throw new UsageError('workbench dataset check FILE.jsonl');
      const dataset = loadDataset(file);
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ path: dataset.path, version: dataset.version, items: dataset.items.length })}\n`
          : `${dataset.path}: ${dataset.items.length} items, version ${dataset.version}\n`,
      );
      return EXIT.finished;
    }
    if (sub === 'add') {
      if (file === undefined || rest.length === 0)
        throw new UsageError('workbench dataset add FILE.jsonl RUN... [--answer]');
      const runtime = createRuntime();
      try {
        const summaries = runtime.runs.list();
        const runs = rest.map((ref) => {
          const runId = resolveRunRef(ref, summaries);
          const events = runtime.runs.history.read(runId)?.events;
          if (!events) throw new UsageError(`no run ${ref} in the history`);
          return { runId, events };
        });
        // the folders are copied: the workspace gate first, never an imported run's
        const gate = {
          home: runtime.services.home,
          settings: runtime.services.loadConfig().sandbox,
        };
        for (const run of runs) {
          const isImported = runtime.runs.get(run.runId)?.isImported === true;
          await admitStartingFolder({ ...run, isImported }, gate);
        }
        const { dataset, added } = addRunsToDataset({ file, runs, withAnswer: values.answer });
        process.stdout.write(
          `${added.map((i) => `added ${i.id}`).join('\n')}\n${dataset.path}: ${dataset.items.length} items, version ${dataset.version}\n`,
        );
        return EXIT.finished;
      } finally {
        await runtime.dispose();
      }
    }
    throw new UsageError('workbench dataset check|add (see: workbench dataset --help)');
  } catch (error) {
    if (
      error instanceof DatasetError ||
      error instanceof DatasetAddError ||
      error instanceof FileReadError
    )
      throw new UsageError(error.message);
    throw error;
  }
}
