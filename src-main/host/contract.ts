/**
 * The contract's request handlers, shared by every transport. Each request is checked
 * against the channel list, validated with zod, and answered with an IpcResult: a typed
 * error for bad input or a failure, never an exception across the transport.
 */
import { join } from 'node:path';
import {
  REQUEST_CHANNELS,
  type IpcResult,
  type RequestChannel,
  type RequestInput,
  type RequestOutput,
  type PlaygroundDelta,
  type RunSummary,
} from '@shared/ipc';
import { parseRequest } from '@shared/ipc-schemas';
import { testConnection } from '../runtime/config/connection-test';
import { ProfileEditError } from '../runtime/config/profile-edits';
import { ConfigError } from '../runtime/config/load';
import { exportRun, importRun, RunTransferError } from '../runtime/runs/run-transfer';
import { RunComparer, RunCompareError } from '../runtime/runs/run-compare';
import { RunStartRefused } from '../runtime/runs/run-start-refused';
import type { Runtime } from '../runtime/runtime';
import type { DockerProbe, SandboxTracker } from './sandbox-status';
import { createSettingsHandlers } from './settings-handlers';
import { HandlerError } from './handler-error';

export { HandlerError } from './handler-error';
import { preflight } from '../runtime/launch/preflight';
import { createDebugHandlers } from './debug-handlers';
import { createTimeTravelHandlers } from './timetravel-handlers';
import { createBatchHandlers } from './batch-handlers';
import { createGatewayHandlers } from './gateway-handlers';
import { createTelemetryHandlers } from './telemetry-handlers';
import { createFilesHandlers } from './files-handlers';
import { createFilesLiveHandlers } from './files-live-handlers';
import { createExperimentsHandlers } from './experiments-handlers';
import { createTerminalHandlers } from './terminal-handlers';
import { createPlaygroundHandlers } from './playground-handlers';
import { admitAgentRef, createAgentsHandlers } from './agents-handlers';
import { deleteRun } from './delete-run';
import { admitRerun, rerunAgentInput } from './rerun-admission';

export type Handlers = {
  [C in RequestChannel]: (input: RequestInput<C>) => Promise<RequestOutput<C>>;
};

export interface HandlerDeps {
  mode: 'desktop' | 'browser';
  version: string;
  sandbox: SandboxTracker;
  dockerProbe: DockerProbe;
  /** pushes `runs:changed` (an import added a run, a rename) */
  onRunsChanged(summaries: RunSummary[]): void;
  /** pushes `runs:deleted` */
  onRunsDeleted(runIds: string[]): void;
  /** pushes `playground:delta` (absent: the text streams to no one, the answer still comes) */
  onPlaygroundDelta?(delta: PlaygroundDelta): void;
  /** the desktop app's folder dialog (absent in browser mode) */
  pickFolder?: () => Promise<string | null>;
}

/** Config problems are the user's to fix: invalid input, with the key path and line. */
function configFailure(error: unknown): never {
  if (error instanceof ConfigError) {
    throw new HandlerError('invalid_input', error.message, error.issues);
  }
  if (error instanceof ProfileEditError) throw new HandlerError(error.code, error.message);
  throw error;
}

/** After a run finished, its history is closed and written out. */
const STORE_DIGESTS_AFTER_MS = 1_000;

export function createHandlers(runtime: Runtime, deps: HandlerDeps): Handlers {
  const { runs, services } = runtime;
  const comparer = new RunComparer(runs.history, (id) => runs.isRunning(id));
  // A run that finished gets its comparison digests beside its history, a moment later
  // and off its path: comparing it then reads no history (issue 27).
  runs.onEvent((event) => {
    if (event.type !== 'run.finished') return;
    const { runId } = event; // only the id: the event itself is not kept for the wait
    const timer = setTimeout(() => {
      try {
        comparer.store(runId);
      } catch {
        // its first comparison makes them (and says what is wrong with its history)
      }
    }, STORE_DIGESTS_AFTER_MS);
    timer.unref?.();
  });
  return {
    'app:info': async () => ({
      version: deps.version,
      mode: deps.mode,
      home: services.home,
      configFile: services.config.file,
      sessionId: runtime.sessionId,
      workspacesDir: join(services.home, 'workspaces'),
      sessionWorkspace: join(services.home, 'workspaces', runtime.sessionId),
      secretStorage: services.config.secrets.kind,
    }),
    'run:start': async (asked) => {
      try {
        services.config.load();
      } catch (error) {
        if (error instanceof ConfigError) {
          throw new HandlerError(
            'conflict',
            `The run cannot start: ${error.message} (fix it in the settings or in the file)`,
            error.issues,
          );
        }
        throw error;
      }
      // "Run again": the recorded run's agent, not the one the window named; a user's
      // agent: checked and pinned now (a bad one is refused, never a failed run)
      const input = admitAgentRef(runtime, rerunAgentInput(runtime, asked));
      // "Run again" of an imported run: its folder is one of the machine it was recorded
      // on, named by the file, not chosen here (docs/security.md).
      const repeated = input.rerunOf !== undefined ? runs.get(input.rerunOf) : undefined;
      if (repeated?.isImported && input.workspace) {
        throw new HandlerError(
          'conflict',
          `The run cannot start: run ${repeated.runId} was imported, and the folder its history names (${input.workspace.path}) is not one you chose here. Start a new run and choose its folder.`,
        );
      }
      // Pre-flight errors refuse the run with their fix (warnings were shown before).
      const checked = await preflight(services, input, { probeModel: false });
      const errors = checked.checks.filter((c) => c.status === 'error');
      if (errors.length > 0) {
        throw new HandlerError(
          'conflict',
          `The run cannot start: ${errors.map((e) => `${e.message}${e.fix ? `. ${e.fix}` : ''}`).join(' ')}`,
        );
      }
      // "Run again": the settings that run recorded, unless today's were asked for.
      const rerun = admitRerun(runtime, input);
      try {
        return { runId: runs.start(input, rerun).runId };
      } catch (error) {
        // the session's sandbox is held by a command typed into a run's terminal
        if (error instanceof RunStartRefused) {
          throw new HandlerError('conflict', `The run cannot start: ${error.message}`);
        }
        throw error;
      }
    },
    'run:stop': async ({ runId }) => {
      if (!runs.get(runId) && !runs.isRunning(runId)) {
        throw new HandlerError('not_found', `No run with id ${runId}`);
      }
      return { stopped: runs.stop(runId) };
    },
    'runs:list': async () => runs.list(),
    'runs:get': async ({ runId, afterSeq, limit }) => {
      const snapshot = runs.snapshot(runId, afterSeq, limit);
      if (!snapshot) throw new HandlerError('not_found', `No run with id ${runId}`);
      return snapshot;
    },
    'runs:export': async ({ runId }) =>
      transfer(() => exportRun(runs.history, runId, runtime.userActions)),
    'runs:import': async ({ content, fileName }) => {
      const result = transfer(() =>
        importRun(runs.history, content, fileName, (id) => runs.isRunning(id), runtime.userActions),
      );
      // the same run again changed nothing: no push
      if (!result.isAlreadyPresent) deps.onRunsChanged([result.summary]);
      return result;
    },
    'runs:diff': async ({ a, b }) => comparing(() => comparer.diff(a, b)),
    'runs:steps': async ({ runId, from, to }) => comparing(() => comparer.steps(runId, from, to)),
    'runs:compare': async ({ runIds }) => comparing(() => comparer.compare(runIds)),
    'runs:rename': async ({ runId, title }) => {
      const summary = runs.rename(runId, title);
      if (!summary) throw new HandlerError('not_found', `No run with id ${runId}`);
      deps.onRunsChanged([summary]);
      return summary;
    },
    'runs:delete': async ({ runId }) => {
      const result = await deleteRun(runtime, runId);
      deps.onRunsDeleted([runId]);
      return result;
    },
    'runs:image': async ({ runId, ref }) => {
      const image = runs.history.readImage?.(runId, ref);
      if (!image) throw new HandlerError('not_found', `Run ${runId} has no image ${ref}`);
      return {
        mimeType: image.mimeType,
        data: image.bytes.toString('base64'),
        bytes: image.bytes.length,
      };
    },
    'config:get': async () => services.config.view(),
    'config:save': async (input) => {
      try {
        return services.config.save(input);
      } catch (error) {
        return configFailure(error);
      }
    },
    'config:import-openmanus': async (input) => {
      try {
        return services.config.importOpenManus(input);
      } catch (error) {
        return configFailure(error);
      }
    },
    'config:test-connection': async (input) => {
      let profile;
      try {
        profile = services.config.previewProfile(input);
      } catch (error) {
        return configFailure(error);
      }
      return testConnection(profile);
    },
    'config:profile': async (edit) => {
      try {
        return services.config.editProfile(edit);
      } catch (error) {
        return configFailure(error);
      }
    },
    'human:answer': async ({ runId, toolCallId, answer }) => {
      const outcome = services.human.answer(runId, toolCallId, answer);
      if (outcome === 'not_found') {
        throw new HandlerError(
          'not_found',
          `Run ${runId} is not waiting for an answer to ${toolCallId} (it may have been answered or stopped)`,
        );
      }
      // an MCP server's form, answered with values its schema refuses: the question stays open
      if (outcome !== 'accepted') throw new HandlerError('invalid_input', outcome.invalid);
      return { accepted: true };
    },
    'sandbox:status': async ({ sessionId }) =>
      deps.sandbox.status(sessionId ?? runtime.sessionId, deps.dockerProbe),
    ...createSettingsHandlers(runtime, deps.pickFolder ? { pickFolder: deps.pickFolder } : {}),
    ...createDebugHandlers(runtime),
    ...createTimeTravelHandlers(runtime),
    ...createBatchHandlers(runtime),
    ...createGatewayHandlers(runtime),
    ...createTelemetryHandlers(runtime),
    ...createFilesHandlers(runtime),
    ...createFilesLiveHandlers(runtime),
    ...createTerminalHandlers(runtime),
    ...createPlaygroundHandlers(runtime, (delta) => deps.onPlaygroundDelta?.(delta)),
    ...createAgentsHandlers(runtime),
    ...createExperimentsHandlers(runtime),
  };
}

function transfer<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof RunTransferError) throw new HandlerError(error.code, error.message);
    throw error;
  }
}

function comparing<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof RunCompareError) throw new HandlerError(error.code, error.message);
    throw error;
  }
}

export function isRequestChannel(channel: unknown): channel is RequestChannel {
  return typeof channel === 'string' && (REQUEST_CHANNELS as readonly string[]).includes(channel);
}

/**
 * A channel for a message, whatever the client sent: `String()` would call a toString
 * of the client's making, and an object whose conversion throws must not escape.
 */
export function describeChannel(channel: unknown): string {
  if (typeof channel === 'string') {
    return channel.length > 100 ? `${channel.slice(0, 100)}…` : channel;
  }
  if (channel === null) return 'null';
  return `(${Array.isArray(channel) ? 'an array' : `a ${typeof channel}`})`;
}

export async function dispatchRequest(
  handlers: Handlers,
  channel: unknown,
  input: unknown,
): Promise<IpcResult<unknown>> {
  if (!isRequestChannel(channel)) {
    return {
      ok: false,
      error: { code: 'not_found', message: `Unknown request channel: ${describeChannel(channel)}` },
    };
  }
  const parsed = parseRequest(channel, input);
  if (!parsed.ok) return parsed;
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.value) };
  } catch (error) {
    if (error instanceof HandlerError) {
      return {
        ok: false,
        error: {
          code: error.code,
          message: error.message,
          ...(error.issues ? { issues: error.issues } : {}),
        },
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[workbench] ${channel} failed: ${message}`);
    return { ok: false, error: { code: 'internal', message } };
  }
}
