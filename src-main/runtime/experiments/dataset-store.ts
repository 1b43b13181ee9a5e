/**
 * The datasets the app edits (issue 31): `WORKBENCH_HOME/datasets/NAME.jsonl`, listed,
 * read, saved from the editor and grown by "Add to dataset". A save is validated exactly
 * as an experiment will read it (loadDataset: every line, `file:` tasks, workspace
 * folders) before it replaces the file, and every saved content is kept as a version
 * (`datasets/.versions/NAME/N-HASH.jsonl`, like an agent's), so an experiment's recorded
 * dataset version can be found again.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '@shared/events';
import { datasetLine, DatasetError, type DatasetItem } from '@shared/experiments/dataset';
import type {
  DatasetListEntry,
  DatasetVersionEntry,
  DatasetView,
} from '@shared/domain/experiments';
import { writeFileAtomic } from '../config/atomic-write';
import { readRegularFile } from '../util/read-regular-file';
import { loadDataset, type LoadedDataset } from './dataset-file';
import { addRunsToDataset } from './dataset-add';

export class DatasetNotFoundError extends Error {}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DATASET_NAME_RULE =
  '1-64 letters, digits, ".", "_" or "-", starting with a letter or digit';

export class DatasetStore {
  constructor(private readonly dir: string) {}

  path(name: string): string {
    if (!NAME.test(name) || name.endsWith('.'))
      throw new DatasetNotFoundError(`"${name}" is not a dataset name (${DATASET_NAME_RULE})`);
    return join(this.dir, `${name}.jsonl`);
  }

  list(): DatasetListEntry[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.jsonl') && !n.startsWith('.'));
    } catch {
      return [];
    }
    return names.sort().map((file) => {
      const name = file.slice(0, -'.jsonl'.length);
      const path = join(this.dir, file);
      const modifiedAt = statSync(path).mtimeMs;
      try {
        const dataset = loadDataset(path);
        return { name, path, version: dataset.version, items: dataset.items.length, modifiedAt };
      } catch (error) {
        const problems =
          error instanceof DatasetError
            ? error.problems.slice(0, 5)
            : [{ line: 0, message: (error as Error).message }];
        return { name, path, version: null, items: 0, problems, modifiedAt };
      }
    });
  }

  get(name: string): DatasetView {
    const path = this.path(name);
    if (!existsSync(path)) throw new DatasetNotFoundError(`No dataset "${name}" (${path})`);
    return this.view(name, loadDataset(path));
  }

  /** Replaces the dataset's items; refused (DatasetError, every line's problem) when invalid. */
  save(name: string, items: DatasetItem[]): DatasetView {
    const path = this.path(name);
    mkdirSync(this.dir, { recursive: true });
    const text = items.map(datasetLine).join('\n') + (items.length > 0 ? '\n' : '');
    // Checked beside the real file (same folder: the same relative paths) before it replaces it.
    const check = join(this.dir, `.check-${randomBytes(6).toString('hex')}.jsonl`);
    let dataset: LoadedDataset;
    try {
      writeFileAtomic(check, text, 0o644);
      dataset = loadDataset(check);
    } catch (error) {
      if (error instanceof DatasetError) throw new DatasetError(path, error.problems);
      throw error;
    } finally {
      rmSync(check, { force: true });
    }
    writeFileAtomic(path, text, 0o644);
    const saved = { ...dataset, path };
    this.keepVersion(name, saved.version, text);
    return this.view(name, saved);
  }

  /** "Add to dataset": the runs become items (the dataset is created when it is new). */
  addRuns(
    name: string,
    runs: { runId: string; events: readonly RunEvent[] }[],
    withAnswer: boolean,
  ): { dataset: DatasetView; added: string[] } {
    const path = this.path(name);
    mkdirSync(this.dir, { recursive: true });
    const { dataset, added } = addRunsToDataset({ file: path, runs, withAnswer });
    this.keepVersion(name, dataset.version, readRegularFile(path, 16 * 1024 * 1024, 'The dataset'));
    return { dataset: this.view(name, dataset), added: added.map((i) => i.id) };
  }

  versions(name: string): DatasetVersionEntry[] {
    const dir = this.versionsDir(name);
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      return [];
    }
    return files
      .flatMap((file) => {
        const match = /^(\d+)-([0-9a-f]{16})\.jsonl$/.exec(file);
        if (!match) return [];
        return [
          {
            n: Number(match[1]),
            version: `sha256:${match[2]}`,
            savedAt: statSync(join(dir, file)).mtimeMs,
          },
        ];
      })
      .sort((a, b) => b.n - a.n);
  }

  private view(name: string, dataset: LoadedDataset): DatasetView {
    return {
      name,
      path: dataset.path,
      version: dataset.version,
      items: dataset.items.map(({ taskText: _t, workspacePath: _w, ...item }): DatasetItem => item),
      versions: this.versions(name),
    };
  }

  private keepVersion(name: string, version: string, text: string): void {
    const known = this.versions(name);
    if (known[0]?.version === version) return;
    const dir = this.versionsDir(name);
    mkdirSync(dir, { recursive: true });
    const n = (known[0]?.n ?? 0) + 1;
    writeFileAtomic(join(dir, `${n}-${version.replace(/^sha256:/, '')}.jsonl`), text, 0o644);
  }

  private versionsDir(name: string): string {
    return join(this.dir, '.versions', name);
  }
}
