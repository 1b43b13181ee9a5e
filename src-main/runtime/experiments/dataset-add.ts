/**
 * "Add to dataset" (issue 31): runs of the history become dataset items: the run's
 * task, its starting workspace (the folder it was given, copied beside the dataset into
 * `workspaces/ID/`, so the item keeps it even if the folder changes later), and
 * optionally its final answer as the expected one. The file is rewritten atomically
 * and read back through the same validation as any dataset.
 */
import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { RunEvent } from '@shared/events';
import {
  datasetLine,
  parseDatasetLines,
  DatasetError,
  type DatasetItem,
} from '@shared/experiments/dataset';
import { runAnswer } from '@shared/experiments/run-facts';
import { writeFileAtomic } from '../config/atomic-write';
import { readRegularFile } from '../util/read-regular-file';
import { loadDataset, type LoadedDataset } from './dataset-file';

export class DatasetAddError extends Error {}

export interface AddRunsInput {
  file: string;
  runs: { runId: string; events: readonly RunEvent[] }[];
  /** the run's final answer becomes the item's expected answer */
  withAnswer?: boolean;
}

export function addRunsToDataset(input: AddRunsInput): {
  dataset: LoadedDataset;
  added: DatasetItem[];
} {
  const path = resolve(input.file);
  const before = existsSync(path) ? readRegularFile(path, 16 * 1024 * 1024, 'The dataset') : '';
  const parsed = parseDatasetLines(before);
  if (parsed.problems.length > 0) throw new DatasetError(path, parsed.problems);
  const ids = new Set(parsed.items.map((i) => i.id));
  const added: DatasetItem[] = [];
  for (const run of input.runs) {
    const started = run.events.find((e) => e.type === 'run.started');
    if (started?.type !== 'run.started')
      throw new DatasetAddError(`the run ${run.runId} has no recorded start: nothing to add`);
    let id = `run-${run.runId.replace(/[^A-Za-z0-9]/g, '').slice(-8)}`;
    for (let n = 2; ids.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
    ids.add(id);
    const item: DatasetItem = {
      id,
      task: started.task,
      metadata: { fromRun: run.runId, agent: started.agent, model: started.model },
    };
    const folder = started.workspace?.path;
    // A mounted folder is where the agent worked: it now holds what the run did, and the
    // files it started from are gone (no snapshot is taken before the first step).
    if (folder !== undefined && started.workspace?.mode === 'mount')
      throw new DatasetAddError(
        `the run ${run.runId} worked in ${folder} itself (mounted), so the folder now holds the run's changes, not the files it started from: add a run made with an isolated copy of the folder (\`--isolated\`, the "isolated copy" box), which leaves the folder as it was`,
      );
    if (folder !== undefined) {
      if (!existsSync(folder) || !statSync(folder).isDirectory())
        throw new DatasetAddError(
          `the run ${run.runId} started in ${folder}, which is no longer a folder: its workspace cannot be kept`,
        );
      const target = join(dirname(path), 'workspaces', id);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(folder, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
      item.workspace = `workspaces/${id}`;
    }
    if (input.withAnswer) {
      const answer = runAnswer(run.events);
      if (answer === undefined)
        throw new DatasetAddError(
          `the run ${run.runId} gave no answer to keep as the expected one`,
        );
      item.expected = answer;
    }
    added.push(item);
  }
  const kept = before.trimEnd();
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(
    path,
    `${kept === '' ? '' : `${kept}\n`}${added.map(datasetLine).join('\n')}\n`,
    0o644,
  );
  return { dataset: loadDataset(path), added };
}
