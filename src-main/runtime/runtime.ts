/**
 * The runtime as the hosts see it (the composition root): one object that owns the run
 * manager, the sessions and everything that must be released when the app quits. Plain
 * Node: importing electron here is a lint error.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ConfigService } from './config/config-service';
import { defaultHome } from './config/home';
import { FileSecretStore, type SecretStore } from './config/secrets';
import type { LlmClient } from './llm/llm-client';
import { LazyOpenAiLlm } from './llm/lazy-openai-llm';
import type { LlmProfile, WorkbenchConfig } from './config/schema';
import { HumanBroker } from './tools/human-broker';
import type { RunHistory } from './runs/run-history';
import { RunManager, type RunFactory } from './runs/run-manager';
import { createRunFactory } from './launch/run-factory';
import { RunStore } from './runs/run-store';
import { CheckpointStore } from './runs/checkpoint-store';
import type { RuntimeServices } from './agents/runtime-services';
import { SandboxManager } from './sandbox/sandbox-manager';
import { WarmPool, sweepWarmPoolFolders } from './sandbox/warm-pool';
import { SessionRegistry } from './session/session';
import { ScriptedProvider } from './demo/scripted-provider';
import { BatchService } from './batch/batch-service';
import { ExperimentService } from './experiments/experiment-service';
import { ModelGates } from './llm/model-gates';
import { admitLineage } from './launch/lineage-admission';
import { sweepOrphanWorkspaces } from './runs/orphan-workspaces';
import { startTelemetry, type RuntimeTelemetry } from './telemetry/runtime-telemetry';
import { WorkspaceFiles } from './timetravel/workspace-files';
import { WorkspaceHistory } from './timetravel/workspace-history';
import { RunTerminal } from './terminal/run-terminal';
import { UserActionsLog } from './terminal/user-actions-log';

export interface RuntimeOptions {
  /** defaults to $WORKBENCH_HOME, else ~/.agent-workbench */
  home?: string;
  /** config file; defaults to <home>/config.toml */
  configFile?: string;
  /** replaces the config-driven factory (tests) */
  factory?: RunFactory;
  createLlm?: (profile: LlmProfile) => LlmClient;
  sessionId?: string;
  /** where API keys saved from the UI live; default <home>/secrets.json (0600) */
  secrets?: SecretStore;
  /** run history; default a RunStore in <home>/runs */
  history?: RunHistory;
  env?: NodeJS.ProcessEnv;
  /** the sandbox containers' owner; default one on the local Docker engine (or DOCKER_HOST) */
  sandboxes?: SandboxManager;
  /**
   * remove containers left by crashed instances now (default); false leaves it to the
   * first sandbox this instance creates (the CLI: a run without the sandbox never loads
   * the Docker client)
   */
  sweepAtStart?: boolean;
  /**
   * false: a batch run's sandbox is started when the run asks for it, as before the warm
   * pool (sandbox/warm-pool.ts); the bench's baseline. Default true.
   */
  warmPool?: boolean;
  /** applied to the config each run reads (the CLI's per-run choices, e.g. --server-url) */
  configOverlay?: (config: WorkbenchConfig) => WorkbenchConfig;
  /** shows an MCP server's OAuth sign-in page (the host's browser opener; RuntimeServices) */
  openUrl?: RuntimeServices['openUrl'];
  /** told of each failed live export (the host shows it); default: a line on stderr for the first few */
  onTelemetryFailure?: (stats: { failures: number; lastError?: string }, endpoint: string) => void;
}

export interface Runtime {
  runs: RunManager;
  /** batch runs: a task set against several profiles (`workbench batch`, the Batch view) */
  batches: BatchService;
  /** experiments: a dataset x variants x repeats, scored (`workbench experiment`) */
  experiments: ExperimentService;
  services: RuntimeServices;
  /** a run's files at every step, from its checkpoints (issue 32, docs/time-travel.md) */
  files: WorkspaceFiles;
  /** commands the user types into a paused or finished run's sandbox (issue 32, docs/events.md) */
  terminal: RunTerminal;
  /** the commands typed into runs' terminals (their user-actions logs), for export and import */
  userActions: UserActionsLog;
  /** the session new runs use unless told otherwise */
  sessionId: string;
  /** work to finish before dispose() closes the runs (a model gateway ends its runs) */
  onDispose?(work: () => Promise<void>): void;
  /** live export to `[telemetry] otlp_endpoint`, when it is set (docs/telemetry.md) */
  telemetry?: RuntimeTelemetry;
  dispose(): Promise<void>;
}

export { defaultHome };

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const home = options.home ?? defaultHome();
  const configFile = options.configFile ?? join(home, 'config.toml');
  const config = new ConfigService({
    file: configFile,
    secrets: options.secrets ?? new FileSecretStore(join(home, 'secrets.json')),
    ...(options.env ? { env: options.env } : {}),
  });
  const services: RuntimeServices = {
    home,
    loadConfig: options.configOverlay
      ? () => options.configOverlay!(config.load())
      : () => config.load(),
    config,
    human: new HumanBroker(),
    sessions: new SessionRegistry(join(home, 'workspaces')),
    createLlm: options.createLlm ?? ((profile) => new LazyOpenAiLlm(profile)),
    sandboxes: options.sandboxes ?? new SandboxManager(),
    scripted: new ScriptedProvider({ baseDir: home, ...(options.env ? { env: options.env } : {}) }),
    modelGates: new ModelGates(),
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
  };
  // Containers left by a crashed instance are removed at start (in the background), or
  // before this instance's first container is created.
  if (options.sweepAtStart !== false) void services.sandboxes.startSweep();
  const sessionId = options.sessionId ?? `s-${randomUUID().slice(0, 8)}`;
  const history = options.history ?? new RunStore(join(home, 'runs'));
  // Snapshots live beside the histories (docs/time-travel.md).
  const runsDir = history instanceof RunStore ? history.dir : join(home, 'runs');
  const checkpoints = new CheckpointStore(runsDir);
  const workspacesDir = join(home, 'workspaces');
  // A fork or copy whose process was killed before its run's first event (no history
  // names it): removed now, or it would stay forever (orphan-workspaces.ts).
  for (const orphan of sweepOrphanWorkspaces(workspacesDir, runsDir)) {
    console.error(
      `[workbench] removed ${join(workspacesDir, orphan)}: the run it was made for never started (its process was killed)`,
    );
  }
  // Spares of a batch's warm pool whose process died: their containers go with the
  // orphan sweep (owner labels), their folders here (sandbox/warm-pool.ts).
  const warmPoolDir = join(home, 'warm-pool');
  sweepWarmPoolFolders(warmPoolDir, workspacesDir, services.sandboxes.owner);
  const userActions = new UserActionsLog(runsDir);
  const runs = new RunManager(options.factory ?? createRunFactory(services), {
    sessionId,
    history,
    secrets: () => config.secretValues(),
    checkpoints,
    // A deleted fork or isolated run takes the workspace it made (named by its id, never
    // by a path its history names: an imported one could name any) and its container.
    onDeleted: async (runId) => {
      // (`sandbox-RUN`: a sandbox MCP session's own, sandbox-mcp/sandbox-run.ts)
      userActions.remove(runId);
      for (const own of [`fork-${runId}`, `copy-${runId}`, `sandbox-${runId}`]) {
        await services.sessions.close(own);
        rmSync(join(workspacesDir, own), { recursive: true, force: true });
      }
    },
    admitLineage: (admission) => admitLineage(services, checkpoints, admission),
  });
  const telemetry = startTelemetry(
    telemetrySettings(services),
    (listener) => runs.onEvent(listener),
    options.env ?? process.env,
    options.onTelemetryFailure ?? reportTelemetryFailure,
  );
  const batches = new BatchService({
    dir: join(home, 'batches'),
    runs,
    closeSession: (id) => services.sessions.close(id),
    ...(options.warmPool === false
      ? {}
      : {
          warmPool: (batchId: string) =>
            new WarmPool(
              {
                sandboxes: services.sandboxes,
                sessions: services.sessions,
                workspacesDir,
                markersDir: warmPoolDir,
                settings: () => {
                  try {
                    return services.loadConfig().sandbox;
                  } catch {
                    return undefined; // the runs report the bad config themselves
                  }
                },
              },
              batchId,
            ),
        }),
  });
  const experiments = new ExperimentService({
    dir: join(home, 'experiments'),
    home,
    batches,
    runs,
    loadConfig: () => services.loadConfig(),
  });
  const terminal = new RunTerminal(runs, services, userActions, workspacesDir);
  const disposers: (() => Promise<void>)[] = [];
  const files = new WorkspaceFiles(
    new WorkspaceHistory(checkpoints, (runId) => {
      const forkOf = runs.get(runId)?.forkOf;
      return forkOf ? { forkOf } : undefined;
    }),
  );
  return {
    runs,
    batches,
    experiments,
    services,
    files,
    terminal,
    userActions,
    sessionId,
    onDispose: (work) => void disposers.push(work),
    ...(telemetry ? { telemetry } : {}),
    async dispose() {
      await Promise.allSettled(disposers.map((work) => work()));
      // Batches first: their stopped runs go back to the queue instead of starting others.
      const stopping = batches.dispose();
      await runs.dispose();
      await stopping;
      // the last spans (bounded: a receiver that is down costs at most a few seconds)
      await telemetry?.shutdown();
      await services.sessions.closeAll();
      await services.scripted.dispose();
      // Whatever the sessions did not remove (containers mid-creation, failed removals).
      await services.sandboxes.dispose().catch((error: unknown) => {
        console.error(`[workbench] ${(error as Error).message}`);
      });
    },
  };
}

/** `[telemetry]` as the config has it at start; a config that does not load exports nothing. */
function telemetrySettings(services: RuntimeServices): WorkbenchConfig['telemetry'] | undefined {
  try {
    return services.loadConfig().telemetry;
  } catch {
    return undefined; // the run reports the bad config itself
  }
}

/** The first failures and then every hundredth: counted and shown, never fatal. */
function reportTelemetryFailure(
  stats: { failures: number; lastError?: string },
  endpoint: string,
): void {
  if (stats.failures <= 3 || stats.failures % 100 === 0) {
    console.error(
      `[workbench] telemetry: export to ${endpoint} failed (${stats.failures} so far): ${stats.lastError ?? 'unknown error'}`,
    );
  }
}
