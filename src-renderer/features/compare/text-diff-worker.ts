/**
 * The compare view's word and line diffs, off the main thread: a long reply or tool
 * output diffed while the rows scroll held the main thread for tens of milliseconds
 * (issue 27). Started by text-diffs.ts.
 */
import { answerDiff, type DiffRequest } from './text-diff-protocol';

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<DiffRequest>) => void) | null;
  postMessage(message: unknown): void;
};
scope.onmessage = (event) => scope.postMessage(answerDiff(event.data));
