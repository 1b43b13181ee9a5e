/**
 * The runtime as the hosts see it: one object that owns the run manager and everything
 * that must be released when the app quits. Plain Node: importing electron here is a
 * lint error.
 */
import { RunManager, type RunFactory } from './runs/run-manager';
import { createDefaultRunFactory } from './runs/default-factory';

export interface RuntimeOptions {
  factory?: RunFactory;
}

export interface Runtime {
  runs: RunManager;
  dispose(): Promise<void>;
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const runs = new RunManager(options.factory ?? createDefaultRunFactory());
  return {
    runs,
    async dispose() {
      await runs.dispose();
    },
  };
}
