/**
 * A run's checkpoints taken of a plain folder, the way the recorder takes them in host
 * mode (a full snapshot, then deltas from the ctime mark, each committed with its
 * listing): for tests of what is read back from checkpoints, without a sandbox.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../../runs/checkpoint-store';
import { takeHostSnapshot } from '../host-snapshot';

export class CheckpointedFolder {
  readonly store: CheckpointStore;
  private mark: number | undefined;

  constructor(
    readonly folder: string,
    readonly runId = '20261201T000000-0000f11e',
    store?: CheckpointStore,
  ) {
    this.store = store ?? new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-files-history-')));
  }

  /** Takes the checkpoint after `step` (the folder as it is now). */
  async checkpoint(step: number): Promise<void> {
    const partial = this.store.partialArchivePath(this.runId, step);
    const taken = await takeHostSnapshot(this.folder, partial, this.mark);
    this.mark = taken.mark;
    this.store.commit(
      this.runId,
      {
        agent: 'swe',
        step,
        takenAt: Date.now(),
        containerId: 'host-folder',
        isFull: taken.isFull,
        bytes: taken.bytes,
        manifest: taken.manifest,
        processes: [],
      },
      partial,
    );
  }
}
