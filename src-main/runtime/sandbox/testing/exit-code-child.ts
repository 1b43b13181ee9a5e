/**
 * Child process for one-shot-exec.test.ts: polls an exec's exit code from an engine that
 * says "still running" three times, with nothing else alive in the process. If the wait
 * between polls does not keep the process alive, Node exits before the answer is printed.
 */
import type { ContainerEngine } from '../engine';
import { exitCodeOf } from '../one-shot-exec';

let looks = 0;
const engine = {
  inspectExec: async () =>
    ++looks < 4 ? { isRunning: true, exitCode: null } : { isRunning: false, exitCode: 7 },
} as unknown as ContainerEngine;

const code = await exitCodeOf(engine, 'exec-1');
process.stdout.write(`exit code ${code} after ${looks} looks\n`);
