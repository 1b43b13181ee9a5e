/**
 * For checkpoint-off-path.int.test.ts: a process that dies (SIGKILL, nothing cleaned up)
 * while a checkpoint's archive is being written from its staged copies, as the recorder
 * writes it (capture, write the partial archive, commit only after). Prints where it died.
 * argv: workspace folder, checkpoint store folder, run id.
 */
import { statSync, writeSync } from 'node:fs';
import { CheckpointStore } from '../../runs/checkpoint-store';
import { captureHostSnapshot } from '../host-snapshot';

const [folder, storeDir, runId] = process.argv.slice(2) as [string, string, string];
const store = new CheckpointStore(storeDir);
const partial = store.partialArchivePath(runId, 1);
const capture = await captureHostSnapshot(folder, store.stagingPath(runId, 1), undefined);
// The write goes through the thread pool a chunk at a time: this check runs between them.
const watch = setInterval(() => {
  const written = statSync(partial, { throwIfNoEntry: false })?.size ?? 0;
  if (written === 0) return;
  writeSync(1, `killed mid-archive at ${written} of ${capture.bytes} bytes\n`);
  process.kill(process.pid, 'SIGKILL');
}, 0);
await capture.write(partial);
clearInterval(watch);
writeSync(1, 'the archive was written before the process could die\n');
store.commit(
  runId,
  {
    agent: 'swe',
    step: 1,
    takenAt: Date.now(),
    containerId: 'host-folder',
    isFull: true,
    bytes: capture.bytes,
    manifest: capture.manifest,
    processes: [],
  },
  partial,
);
