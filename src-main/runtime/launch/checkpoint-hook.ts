/**
 * The step-boundary hook of a run (docs/time-travel.md): a checkpoint recorder that takes
 * a workspace snapshot at each step boundary, or none when snapshots are turned off.
 */
import type { WorkbenchConfig } from '../config/schema';
import type { RuntimeServices } from '../agents/runtime-services';
import type { RunContext } from '../runs/run-manager';
import { parseByteSize } from '../sandbox/workspace-size';
import { CheckpointRecorder } from '../timetravel/checkpoint-recorder';
import type { RunSession } from './run-session';

export function checkpointHook(
  services: RuntimeServices,
  config: WorkbenchConfig,
  context: RunContext,
  opened: RunSession,
): ((agent: string, step: number) => Promise<void>) | undefined {
  if (!context.checkpoints || !config.history.checkpoints || !config.sandbox.use_sandbox) {
    return undefined;
  }
  const recorder = new CheckpointRecorder({
    store: context.checkpoints,
    runId: context.runId,
    session: opened.session,
    sandboxes: services.sandboxes,
    settings: config.sandbox,
    limits: {
      budget: parseByteSize(config.history.snapshot_budget),
      runLimit: parseByteSize(config.history.snapshot_run_limit),
      stepLimit: parseByteSize(config.history.snapshot_step_limit),
    },
    warn: (message) => console.error(`[workbench] ${message}`),
    // a limit the snapshots hit belongs to the run's story (checkpoint.limited)
    emit: context.emit,
  });
  // A step's archive is written beside the next step (checkpoint-recorder.ts): the run's
  // session (its container, a per-run workspace) is released, and the run finishes, only
  // once the last one is kept.
  const release = opened.release;
  opened.release = async () => {
    await recorder.settled();
    await release();
  };
  return recorder.atStepBoundary;
}
