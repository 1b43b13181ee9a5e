/**
 * The typed contract between the runtime host (Electron main or `workbench serve`) and
 * any UI (DESIGN section 5). Requests are `domain:verb`; pushes are past-tense facts.
 * Channel strings live only here. This module has no runtime dependencies so the
 * sandboxed preload can import it without bundling a validator; the zod schemas that
 * main uses to validate inputs are in `ipc-schemas.ts`.
 */
import type { AgentName, AgentState, FlowName, RunOutcome, TokenUsage } from './domain/agent';
import type { RunEvent } from './events';

export interface RunStartInput {
  task: string;
  agent?: AgentName;
  flow?: FlowName;
  maxSteps?: number;
}

export interface RunSummary {
  runId: string;
  agent: string;
  task: string;
  model: string;
  flow?: FlowName;
  startedAt: number;
  finishedAt?: number;
  state: AgentState;
  outcome?: RunOutcome;
  steps: number;
  maxSteps: number;
  usage: TokenUsage;
  error?: string;
}

/** request channel -> input and output */
export interface RequestMap {
  'run:start': { input: RunStartInput; output: { runId: string } };
  'run:stop': { input: { runId: string }; output: { stopped: boolean } };
  'runs:list': { input: Record<string, never>; output: RunSummary[] };
}
export type RequestChannel = keyof RequestMap;
export type RequestInput<C extends RequestChannel> = RequestMap[C]['input'];
export type RequestOutput<C extends RequestChannel> = RequestMap[C]['output'];

/** push channel -> payload */
export interface PushMap {
  /** a batch of events, in emission order (per run, seq ascending) */
  'run:events': RunEvent[];
}
export type PushChannel = keyof PushMap;

export const REQUEST_CHANNELS = [
  'run:start',
  'run:stop',
  'runs:list',
] as const satisfies readonly RequestChannel[];
export const PUSH_CHANNELS = ['run:events'] as const satisfies readonly PushChannel[];

/** The named methods a UI gets: one per contract entry, nothing generic. */
export const API_METHODS = {
  startRun: 'run:start',
  stopRun: 'run:stop',
  listRuns: 'runs:list',
} as const satisfies Record<string, RequestChannel>;
export const API_SUBSCRIPTIONS = {
  onRunEvents: 'run:events',
} as const satisfies Record<string, PushChannel>;

type MethodChannel<M extends keyof typeof API_METHODS> = (typeof API_METHODS)[M];
type SubscriptionChannel<S extends keyof typeof API_SUBSCRIPTIONS> = (typeof API_SUBSCRIPTIONS)[S];

/** What the renderer talks to: implemented by the preload bridge and by the WebSocket client. */
export type AppApi = {
  [M in keyof typeof API_METHODS]: (
    input: RequestInput<MethodChannel<M>>,
  ) => Promise<RequestOutput<MethodChannel<M>>>;
} & {
  [S in keyof typeof API_SUBSCRIPTIONS]: (
    listener: (payload: PushMap[SubscriptionChannel<S>]) => void,
  ) => () => void;
};

/**
 * What the preload exposes as `window.workbench`: the same methods, answering with the
 * IpcResult envelope (a thrown error would lose its code crossing the context bridge).
 */
export type BridgeApi = {
  [M in keyof typeof API_METHODS]: (
    input: RequestInput<MethodChannel<M>>,
  ) => Promise<IpcResult<RequestOutput<MethodChannel<M>>>>;
} & {
  [S in keyof typeof API_SUBSCRIPTIONS]: (
    listener: (payload: PushMap[SubscriptionChannel<S>]) => void,
  ) => () => void;
};

export const IPC_ERROR_CODES = [
  'invalid_input',
  'forbidden',
  'not_found',
  'conflict',
  'unavailable',
  'internal',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export interface IpcError {
  code: IpcErrorCode;
  message: string;
  /** for invalid_input: which field and why */
  issues?: { path: string; message: string }[];
}

/**
 * Every request is answered with this envelope on both transports, because Electron's
 * `invoke` flattens thrown errors into a message string and we want typed errors.
 */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** Thrown in the UI when a request is answered with an error. */
export class AppApiError extends Error {
  readonly code: IpcErrorCode;
  readonly issues: IpcError['issues'];
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'AppApiError';
    this.code = error.code;
    this.issues = error.issues;
  }
}

export function unwrapResult<T>(result: IpcResult<T>): T {
  if (result.ok) return result.value;
  throw new AppApiError(result.error);
}
