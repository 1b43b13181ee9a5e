/**
 * An in-memory AppApi for renderer unit tests (happy-dom cannot reach a real host; the
 * Playwright specs drive the real one). It answers every contract method from data the
 * test controls, records the calls, and lets the test push events and changes.
 */
import type { ConnectionEnd } from '../api/ws-api';
import {
  API_METHODS,
  AppApiError,
  type AppApi,
  type ConfigView,
  type PushMap,
  type RequestChannel,
  type RunImageData,
  type RunSnapshot,
  type RunSummary,
  type SandboxStatusView,
} from '@shared/ipc';
import type { RunEvent } from '@shared/events';
import { summarize } from '@shared/run-summary';
import { compareRuns, diffHeads, digestRun, headRun } from '@shared/compare/diff-runs';
import { memoryAgents } from './memory-agents';

type Handler = (input: never) => Promise<unknown>;

export interface MemoryApi extends AppApi {
  calls: { method: string; input: unknown }[];
  /** events held per run (what `runs:get` answers with) */
  history: Map<string, RunEvent[]>;
  /** stored images per `runId/ref` (what `runs:image` answers with) */
  images: Map<string, RunImageData>;
  push(batch: RunEvent[]): void;
  pushConfig(config: ConfigView): void;
  pushBatchProgress(progress: PushMap['batch:progress']): void;
  pushPlaygroundDelta(delta: PushMap['playground:delta']): void;
  setConnected(isConnected: boolean): void;
  onConnectionChange(listener: (c: boolean) => void): () => void;
  /** the WebSocket client's end: it stopped retrying, and why */
  endConnection(end: ConnectionEnd): void;
  onConnectionEnded(listener: (end: ConnectionEnd) => void): () => void;
  /** replaces one method's behaviour */
  override<M extends keyof typeof API_METHODS>(method: M, impl: AppApi[M]): void;
}

export function createMemoryApi(
  options: { config?: ConfigView; sandbox?: SandboxStatusView } = {},
): MemoryApi {
  const listeners = {
    'run:events': new Set<(p: PushMap['run:events']) => void>(),
    'runs:changed': new Set<(p: PushMap['runs:changed']) => void>(),
    'runs:deleted': new Set<(p: PushMap['runs:deleted']) => void>(),
    'config:changed': new Set<(p: PushMap['config:changed']) => void>(),
    'batch:progress': new Set<(p: PushMap['batch:progress']) => void>(),
    'playground:delta': new Set<(p: PushMap['playground:delta']) => void>(),
  };
  const connection = new Set<(c: boolean) => void>();
  const ends = new Set<(end: ConnectionEnd) => void>();
  const history = new Map<string, RunEvent[]>();
  const images = new Map<string, RunImageData>();
  const calls: { method: string; input: unknown }[] = [];
  let nextRun = 1;

  const titles = new Map<string, string>();
  const runInput = (runId: string) => {
    const title = titles.get(runId);
    return { events: eventsOf(runId), ...(title ? { title } : {}) };
  };
  const summaries = (): RunSummary[] =>
    [...history.values()]
      .map((events) => summarize(events))
      .filter((s): s is RunSummary => s !== undefined)
      .map((s) => {
        const title = titles.get(s.runId);
        return {
          ...s,
          lastSeq: history.get(s.runId)?.at(-1)?.seq ?? 0,
          ...(title ? { title } : {}),
        };
      });

  const eventsOf = (runId: string): RunEvent[] => {
    const events = history.get(runId);
    if (!events) throw new AppApiError({ code: 'not_found', message: `No run with id ${runId}` });
    return events;
  };

  const handlers: Record<string, Handler> = {
    getAppInfo: async () => ({
      version: '0.0.0-test',
      mode: 'browser',
      home: '/tmp/home',
      configFile: '/tmp/home/config.toml',
      sessionId: 's-test',
      workspacesDir: '/tmp/home/workspaces',
      sessionWorkspace: '/tmp/home/workspaces/s-test',
      secretStorage: 'user-file',
    }),
    startRun: async () => ({ runId: `run-${nextRun++}` }),
    stopRun: async () => ({ stopped: true }),
    listRuns: async () => summaries(),
    getRun: async (input: { runId: string; afterSeq?: number; limit?: number }) => {
      const events = history.get(input.runId);
      if (!events)
        throw new AppApiError({ code: 'not_found', message: `No run with id ${input.runId}` });
      const summary = summaries().find((s) => s.runId === input.runId)!;
      const after = events.filter((e) => e.seq > (input.afterSeq ?? 0));
      const page = input.limit === undefined ? after : after.slice(0, input.limit);
      return {
        summary,
        events: page,
        isLive: summary.outcome === undefined,
        warnings: [],
        hasMore: page.length < after.length,
      } satisfies RunSnapshot;
    },
    exportRun: async (input: { runId: string }) => ({
      fileName: `${input.runId}.jsonl`,
      content: (history.get(input.runId) ?? []).map((e) => JSON.stringify(e)).join('\n'),
    }),
    importRun: async () => {
      throw new AppApiError({ code: 'invalid_input', message: 'not supported in memory' });
    },
    renameRun: async (input: { runId: string; title: string }) => {
      eventsOf(input.runId);
      const title = input.title.trim();
      if (title) titles.set(input.runId, title);
      else titles.delete(input.runId);
      return summaries().find((s) => s.runId === input.runId)!;
    },
    deleteRun: async (input: { runId: string }) => {
      eventsOf(input.runId);
      history.delete(input.runId);
      titles.delete(input.runId);
      return { deleted: true, wasStopped: false };
    },
    // as the host's RunComparer: each run with the title it has now
    diffRuns: async (input: { a: string; b: string }) =>
      diffHeads(headRun(digestRun(runInput(input.a))), headRun(digestRun(runInput(input.b)))),
    getRunSteps: async (input: { runId: string; from: number; to: number }) =>
      digestRun(runInput(input.runId)).steps.slice(input.from, input.to),
    compareRuns: async (input: { runIds: string[] }) => compareRuns(input.runIds.map(runInput)),
    // as the host answers for runs without checkpoints (a test overrides it with files)
    diffRunWorkspaces: async (input: { a: string; b: string; stepA?: number; stepB?: number }) => {
      eventsOf(input.a);
      eventsOf(input.b);
      return {
        a: { runId: input.a, step: input.stepA ?? 0, asOf: 0 },
        b: { runId: input.b, step: input.stepB ?? 0, asOf: 0 },
        files: [],
        unavailable: `Run ${input.a} has no sandbox checkpoints: its files were not recorded`,
      };
    },
    getConfig: async () => {
      if (!options.config)
        throw new AppApiError({ code: 'unavailable', message: 'no config in this test' });
      return options.config;
    },
    saveConfig: async () => {
      if (!options.config)
        throw new AppApiError({ code: 'unavailable', message: 'no config in this test' });
      return options.config;
    },
    editProfile: async () => {
      if (!options.config)
        throw new AppApiError({ code: 'unavailable', message: 'no config in this test' });
      return options.config;
    },
    importOpenManusConfig: async () => {
      throw new AppApiError({ code: 'invalid_input', message: 'not supported in memory' });
    },
    testConnection: async () => ({
      ok: true,
      model: 'm',
      baseUrl: 'http://x',
      latencyMs: 5,
      message: 'Connected',
    }),
    answerHuman: async () => ({ accepted: true }),
    pauseRun: async () => ({ state: 'pausing' }),
    resumeRun: async () => ({ state: 'running' }),
    stepRun: async () => ({ state: 'pausing' }),
    setBreakpoint: async (input: { spec: string }) => ({
      id: 'bp-1',
      condition: { kind: 'stuck' },
      spec: input.spec,
      origin: 'run',
    }),
    clearBreakpoint: async () => ({ cleared: true }),
    setApproval: async (input: { tools: string[] }) => ({
      approvals: input.tools.map((tool) => ({ tool })),
    }),
    editRun: async () => ({ applied: true }),
    getSandboxStatus: async () => {
      if (!options.sandbox)
        throw new AppApiError({ code: 'unavailable', message: 'Docker is not available' });
      return options.sandbox;
    },
    preflightRun: async () => ({ checks: [], canStart: true }),
    listSandboxImages: async () => ({ images: [] }),
    saveConfigSections: async () => {
      if (!options.config)
        throw new AppApiError({ code: 'unavailable', message: 'no config in this test' });
      return options.config;
    },
    testMcpServer: async () => ({ ok: true, tools: [], message: 'Connected', latencyMs: 5 }),
    listMcpPrompts: async () => [],
    pickFolder: async () => {
      throw new AppApiError({ code: 'unavailable', message: 'type the folder path instead' });
    },
    forkRun: async () => ({ runId: `run-${nextRun++}` }),
    resumeInterruptedRun: async () => ({ runId: `run-${nextRun++}` }),
    continueRun: async () => ({ runId: `run-${nextRun++}` }),
    listCheckpoints: async () => [],
    getStepChangeCounts: async () => ({ steps: [] }),
    // as the host answers for runs without checkpoints
    firstWorkspaceDivergence: async () => ({ first: null }),
    listSandboxCommands: async () => ({ commands: [] }),
    runSandboxCommand: async () => {
      throw new AppApiError({ code: 'unavailable', message: 'no sandbox in this test' });
    },
    getRunImage: async (input: { runId: string; ref: string }) => {
      const image = images.get(`${input.runId}/${input.ref}`);
      if (!image) throw new AppApiError({ code: 'not_found', message: `No image ${input.ref}` });
      return image;
    },
    startBatch: async () => ({ batchId: 'b-test' }),
    stopBatch: async () => ({ stopped: true }),
    resumeBatch: async (input: { batchId: string }) => ({ batchId: input.batchId }),
    getBatch: async (input: { batchId: string }) => {
      throw new AppApiError({ code: 'not_found', message: `No batch "${input.batchId}"` });
    },
    listBatches: async () => [],
    ...memoryAgents(),
    getGateway: async () => ({ isOn: false, profile: 'default' }),
    setGateway: async (input: { isOn: boolean; profile?: string }) => ({
      isOn: input.isOn,
      profile: input.profile ?? 'default',
      ...(input.isOn ? { url: 'http://127.0.0.1:1/v1', token: 'wbg-test' } : {}),
    }),
    // the playground: tests override these with the answers they need
    openPlayground: async (input: { runId: string; seq: number }) => {
      throw new AppApiError({
        code: 'not_found',
        message: `Run ${input.runId} has no model call at event ${input.seq}`,
      });
    },
    sendPlayground: async (input: { sendId: string }) => ({
      sendId: input.sendId,
      mode: 'requests',
      samples: [],
    }),
    savePlaygroundPrompt: async () => {
      throw new AppApiError({ code: 'conflict', message: 'no agent in this test' });
    },
    // no live export, no receiver: the top bar shows nothing of telemetry
    getTelemetryStatus: async () => ({}),
  };

  const api: Record<string, unknown> = {};
  for (const method of Object.keys(API_METHODS)) {
    api[method] = (input: unknown) => {
      calls.push({ method, input });
      return handlers[method]!(input as never);
    };
  }
  const subscribe =
    <C extends keyof typeof listeners>(channel: C) =>
    (listener: (p: PushMap[C]) => void) => {
      (listeners[channel] as Set<(p: PushMap[C]) => void>).add(listener);
      return () => (listeners[channel] as Set<(p: PushMap[C]) => void>).delete(listener);
    };
  return Object.assign(api as AppApi, {
    calls,
    history,
    images,
    onRunEvents: subscribe('run:events'),
    onRunsChanged: subscribe('runs:changed'),
    onRunsDeleted: subscribe('runs:deleted'),
    onConfigChanged: subscribe('config:changed'),
    onBatchProgress: subscribe('batch:progress'),
    onPlaygroundDelta: subscribe('playground:delta'),
    pushPlaygroundDelta(delta: PushMap['playground:delta']) {
      for (const l of listeners['playground:delta']) l(delta);
    },
    push(batch: RunEvent[]) {
      for (const event of batch) {
        const list = history.get(event.runId) ?? [];
        if (!list.some((e) => e.seq === event.seq)) list.push(event);
        history.set(event.runId, list);
      }
      for (const l of listeners['run:events']) l(batch);
    },
    pushConfig(config: ConfigView) {
      for (const l of listeners['config:changed']) l(config);
    },
    pushBatchProgress(progress: PushMap['batch:progress']) {
      for (const l of listeners['batch:progress']) l(progress);
    },
    setConnected(isConnected: boolean) {
      for (const l of connection) l(isConnected);
    },
    onConnectionChange(listener: (c: boolean) => void) {
      connection.add(listener);
      return () => connection.delete(listener);
    },
    endConnection(end: ConnectionEnd) {
      for (const l of connection) l(false);
      for (const l of ends) l(end);
    },
    onConnectionEnded(listener: (end: ConnectionEnd) => void) {
      ends.add(listener);
      return () => ends.delete(listener);
    },
    override(method: string, impl: unknown) {
      handlers[method] = impl as Handler;
    },
  }) as MemoryApi;
}

/** Channel of a method, for assertions. */
export function channelOf(method: keyof typeof API_METHODS): RequestChannel {
  return API_METHODS[method];
}
