/**
 * Following a batch to its end in the terminal, as `workbench batch` and `workbench
 * experiment run|resume` do: its progress line on stderr whenever it changes, and Ctrl-C
 * (or SIGTERM) stops it, saying how to resume, instead of killing the process mid-write.
 */
import type { Runtime } from '../runtime/runtime';
import { progressLine } from './batch-report';

export interface FollowedBatch {
  batchId: string;
  done: Promise<unknown>;
}

/** Answers whether the user stopped it. */
export async function followBatch(
  runtime: Runtime,
  started: FollowedBatch,
  onStop: { what: 'batch' | 'experiment'; resumeWith: string; stop: () => void },
): Promise<{ interrupted: boolean }> {
  let last = '';
  const stopListening = runtime.batches.onProgress((progress) => {
    if (progress.batchId !== started.batchId) return;
    const line = progressLine(progress);
    if (line !== last) process.stderr.write(`${line}\n`);
    last = line;
  });
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    process.stderr.write(
      `workbench: stopping the ${onStop.what}; resume with: ${onStop.resumeWith}\n`,
    );
    onStop.stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await started.done;
  } finally {
    stopListening();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return { interrupted };
}
