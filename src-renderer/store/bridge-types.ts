/**
 * What the store's bridge offers the UI (bridge.ts builds it): commands that go through
 * the main process and land their results in the store, grouped by page.
 */
import type { GatewaySetInput, GatewayView } from '@shared/domain/gateway';
import type { TelemetryStatusView } from '@shared/domain/telemetry-status';
import type {
  AppApi,
  ConfigImportResult,
  ConfigTarget,
  RunExport,
  RunStartInput,
  RunForkInput,
  RunContinueInput,
  CheckpointView,
} from '@shared/ipc';
import type { ConnectionEnd } from '../api/ws-api';
import type { RunDiffView, RunsComparison, StepDigest } from '@shared/compare/types';
import type { SettingsCommands } from './settings-commands';
import type { DebugCommands } from './debug-commands';
import type { BatchCommands } from './batch-commands';
import type { ExperimentCommands } from './experiment-commands';
import type { ImageSource } from './image-source';
import type { AgentsCommands } from './agents-commands';

export type BridgeApi = AppApi & {
  onConnectionChange?: (l: (c: boolean) => void) => () => void;
  /** browser mode: the client stopped reconnecting, and why */
  onConnectionEnded?: (l: (end: ConnectionEnd) => void) => () => void;
  /** browser mode: a stored image's address on the serving host */
  imageUrl?: (runId: string, ref: string) => string;
};

export interface Bridge {
  dispose(): void;
  startRun(input: RunStartInput): Promise<string>;
  stopRun(runId: string): Promise<boolean>;
  loadRun(runId: string): Promise<void>;
  refreshSandbox(): Promise<void>;
  saveConfig(target: ConfigTarget): Promise<boolean>;
  testConnection(target: ConfigTarget): Promise<void>;
  importOpenManusConfig(
    content: string,
    fileName: string,
    dryRun: boolean,
  ): Promise<ConfigImportResult>;
  answerHuman(runId: string, toolCallId: string, answer: string): Promise<void>;
  exportRun(runId: string): Promise<RunExport>;
  /** the run id, and what the import skipped or could not keep (damaged lines, images) */
  importRun(
    content: string,
    fileName: string,
  ): Promise<{ runId: string; warnings: string[]; isAlreadyPresent: boolean }>;
  /** names a run in the history (blank: the task is shown again) */
  renameRun(runId: string, title: string): Promise<void>;
  /** removes a run with its files (a live run is stopped first) */
  deleteRun(runId: string): Promise<void>;
  /** pre-flight, folder picker, sandbox images, [sandbox]/[browser]/[mcp] saves */
  settings: SettingsCommands;
  /** the agent debugger: pause, step, resume, breakpoints, edits */
  debug: DebugCommands;
  /** two runs aligned step by step (the compare page), each step by number */
  diffRuns(a: string, b: string): Promise<RunDiffView>;
  /** a page of a run's step digests: indexes from..to (exclusive) of a diff's stepsA / stepsB */
  runSteps(runId: string, from: number, to: number): Promise<StepDigest[]>;
  /** the summary table of several runs, each against the first */
  compareRuns(runIds: string[]): Promise<RunsComparison>;
  /** a new run from a step of this one (docs/time-travel.md); selects it */
  forkRun(input: RunForkInput): Promise<string>;
  /** the run's checkpoints: which steps can be forked, what was running there */
  listCheckpoints(runId: string): Promise<CheckpointView[]>;
  /** the run's files at a step, a file, a step's diff (issue 32) */
  files: Pick<
    AppApi,
    | 'getRunFiles'
    | 'getRunFile'
    | 'getRunChanges'
    | 'getRunPatch'
    | 'diffRunWorkspaces'
    | 'getStepChangeCounts'
    | 'firstWorkspaceDivergence'
    | 'getLiveFiles'
    | 'getLiveFile'
  >;
  /** the run's terminal: commands typed into its session sandbox (issue 32) */
  terminal: Pick<AppApi, 'runSandboxCommand' | 'listSandboxCommands'>;
  /** the playground: a recorded model call edited and sent again (docs/playground.md) */
  playground: Pick<
    AppApi,
    'openPlayground' | 'sendPlayground' | 'savePlaygroundPrompt' | 'onPlaygroundDelta'
  >;
  /** continues an interrupted run in a new run; selects it */
  resumeRun(runId: string): Promise<string>;
  /** goes on with a finished run in a new run (its memory plus a message); selects it */
  continueRun(input: RunContinueInput): Promise<string>;
  /** batch runs: start, stop, resume, the grid, progress pushes */
  batch: BatchCommands;
  /** the Agents page: definitions, versions, the tools to pick from */
  agents: AgentsCommands;
  /** datasets and experiments (issue 31): reports, trends, progress pushes */
  experiments: ExperimentCommands;
  /** the images a run's history kept (issue 17) */
  images: ImageSource;
  /** the model gateway (docs/gateway.md): its state, on/off and its profile */
  gateway: {
    status(): Promise<GatewayView>;
    set(input: GatewaySetInput): Promise<GatewayView>;
  };
  /** OpenTelemetry live export and receiver (docs/telemetry.md): their counts */
  telemetryStatus(): Promise<TelemetryStatusView>;
}
