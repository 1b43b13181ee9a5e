/**
 * The contract's batch requests (docs/batch.md): start, stop, resume, the grid of one
 * batch and the list of batches. A batch's workspaces pass the same checks as a run's
 * (no `/`, no home folder, nothing holding WORKBENCH_HOME), its profiles must exist.
 */
import type { RequestChannel } from '@shared/ipc';
import { ConfigError } from '../runtime/config/load';
import { checkWorkspace } from '../runtime/launch/workspace';
import { BatchPlanError } from '../runtime/batch/batch-plan';
import { BatchConflictError } from '../runtime/batch/batch-service';
import { BatchNotFoundError } from '../runtime/batch/batch-store';
import type { Runtime } from '../runtime/runtime';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type BatchChannel = Extract<RequestChannel, `batch:${string}`>;

export function createBatchHandlers(runtime: Runtime): Pick<Handlers, BatchChannel> {
  const { batches, services } = runtime;
  return {
    'batch:start': async (input) => {
      let config;
      try {
        config = services.loadConfig();
      } catch (error) {
        if (error instanceof ConfigError)
          throw new HandlerError('conflict', `The batch cannot start: ${error.message}`);
        throw error;
      }
      for (const profile of input.profiles) {
        if (profile !== 'default' && !config.llm.profiles[profile])
          throw new HandlerError('invalid_input', `There is no profile [llm.${profile}]`);
      }
      const folders = [...new Set(input.tasks.flatMap((t) => (t.workspace ? [t.workspace] : [])))];
      for (const path of folders) {
        const check = await checkWorkspace(
          { path, mode: 'copy' },
          { home: services.home, settings: config.sandbox },
        );
        if (check.status === 'error')
          throw new HandlerError('invalid_input', `${check.message}. ${check.fix ?? ''}`.trim());
      }
      return guard(() => ({ batchId: batches.start(input).batchId }));
    },
    'batch:stop': async ({ batchId }) => ({ stopped: batches.stop(batchId) }),
    'batch:resume': async ({ batchId }) =>
      guard(() => ({ batchId: batches.resume(batchId).batchId })),
    'batch:get': async ({ batchId }) => guard(() => batches.grid(batchId)),
    'batch:list': async () => batches.list(),
  };
}

function guard<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof BatchNotFoundError) throw new HandlerError('not_found', error.message);
    if (error instanceof BatchConflictError) throw new HandlerError('conflict', error.message);
    if (error instanceof BatchPlanError) throw new HandlerError('invalid_input', error.message);
    throw error;
  }
}
