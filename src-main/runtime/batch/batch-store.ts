/**
 * Batches on disk, beside the run history: `<home>/batches/<id>/plan.json` (written
 * once) and `state.json` (which run fills which item), each written atomically, so a
 * kill at any moment leaves the old state or the new one and a resume can go on.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPathSafeId } from '@shared/domain/ids';
import type { BatchPlan, BatchState } from '@shared/domain/batch';
import { writeFileAtomic } from '../config/atomic-write';

export class BatchNotFoundError extends Error {}

export class BatchStore {
  constructor(private readonly dir: string) {}

  create(plan: BatchPlan): BatchState {
    const folder = this.folder(plan.batchId);
    mkdirSync(folder, { recursive: true });
    writeFileAtomic(join(folder, 'plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
    const state: BatchState = {
      version: 1,
      batchId: plan.batchId,
      items: Object.fromEntries(plan.items.map((i) => [i.key, { status: 'queued' as const }])),
      updatedAt: Date.now(),
    };
    this.saveState(state);
    return state;
  }

  saveState(state: BatchState): void {
    const next = { ...state, updatedAt: Date.now() };
    writeFileAtomic(join(this.folder(state.batchId), 'state.json'), JSON.stringify(next));
  }

  load(batchId: string): { plan: BatchPlan; state: BatchState } {
    if (!isPathSafeId(batchId, 100)) throw new BatchNotFoundError(`No batch "${batchId}"`);
    const folder = join(this.dir, batchId);
    let plan: BatchPlan;
    let state: BatchState;
    try {
      plan = JSON.parse(readFileSync(join(folder, 'plan.json'), 'utf8')) as BatchPlan;
      state = JSON.parse(readFileSync(join(folder, 'state.json'), 'utf8')) as BatchState;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new BatchNotFoundError(`No batch "${batchId}"`);
      throw new Error(`The batch ${batchId} cannot be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (plan.version !== 1 || state.version !== 1 || !Array.isArray(plan.items))
      throw new Error(`The batch ${batchId} was written by another version of the app`);
    return { plan, state };
  }

  /** Every batch id on disk, newest first. */
  ids(): string[] {
    try {
      return readdirSync(this.dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && isPathSafeId(e.name, 100))
        .map((e) => e.name)
        .sort()
        .reverse();
    } catch {
      return [];
    }
  }

  private folder(batchId: string): string {
    if (!isPathSafeId(batchId, 100)) throw new Error(`Invalid batch id "${batchId}"`);
    return join(this.dir, batchId);
  }
}
