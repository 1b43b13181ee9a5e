/**
 * The one place where the main process's answers and pushes become store state.
 *
 * - Pushed RunEvents are applied in the batches they arrive in. A run whose pushes start
 *   past the seq we hold (a run we joined mid-way, or a gap after a reconnect) is filled
 *   from `runs:get` first; pushes for it wait in a buffer meanwhile, then the overlap is
 *   dropped by seq, so nothing is lost or duplicated.
 * - Selecting a run from the history loads its events once.
 * - Commands (start, stop, save config...) go through here too, so their results land in
 *   the store the same way; they throw `AppApiError`s for the caller to show in place.
 */
import { AppApiError } from '@shared/ipc';
import type { RunEvent } from '@shared/events';
import { issuesToFieldErrors, validateDraft } from './config/config-draft';
import { createSettingsCommands } from './settings-commands';
import type { WorkbenchStore } from './store';
import { createDebugCommands } from './debug-commands';
import { createBatchCommands } from './batch-commands';
import { createExperimentCommands } from './experiment-commands';
import { createImageSource } from './image-source';
import { createAgentsCommands } from './agents-commands';
import type { Bridge, BridgeApi } from './bridge-types';
export type { Bridge, BridgeApi };

/** events per slice of a snapshot: about 10 ms of folding (the first slice is smaller) */
const SNAPSHOT_SLICE = 3000;
const FIRST_SLICE = 1000;
/** events per `runs:get` page: a small first page paints a long run at once */
const FIRST_PAGE = 1000;
const NEXT_PAGE = 2_500;
const LOAD_MARKS = [
  'wb:load:request',
  'wb:load:response',
  'wb:load:first-slice',
  'wb:load:applied',
];

/**
 * Lets the browser paint a frame and handle input before the next slice. A hidden
 * window gets no animation frames, so a timer moves on without one.
 */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function startBridge(api: BridgeApi, store: WorkbenchStore): Bridge {
  const stops: (() => void)[] = [];
  const state = () => store.getState();
  /** runs being filled from `runs:get`, with the pushes that arrived meanwhile */
  const filling = new Map<string, RunEvent[]>();

  async function fill(runId: string, afterSeq: number): Promise<void> {
    if (filling.has(runId)) return;
    filling.set(runId, []);
    const isFullLoad = afterSeq === 0;
    if (isFullLoad) state().setRunLoad(runId, { status: 'loading' });
    try {
      // Marks for the UI benchmark's breakdown (request, answer, applied); cheap to keep.
      for (const name of LOAD_MARKS) performance.clearMarks(name);
      performance.mark('wb:load:request');
      // Pages: the first is small so a long run paints at once; the rest follow. The next
      // page is asked for before this one is folded, so the host reads and sends it while
      // the page folds (a 100,000-step run is 320 pages: a round trip each was idle time).
      const warnings: string[] = [];
      const page = (cursor: number, limit: number) => {
        const answer = api.getRun({ runId, limit, ...(cursor > 0 ? { afterSeq: cursor } : {}) });
        answer.catch(() => undefined); // awaited below; not unhandled if folding fails first
        return answer;
      };
      let next = page(afterSeq, FIRST_PAGE);
      for (let isFirst = true; ; isFirst = false) {
        const snapshot = await next;
        if (isFirst) performance.mark('wb:load:response');
        // The history's summary is shown until the events folded here count as far
        // (store/shown-summary.ts); it is never folded into.
        state().setSummaries([snapshot.summary]);
        const last = snapshot.events.at(-1);
        const hasMore = snapshot.hasMore && last !== undefined;
        if (hasMore) next = page(last.seq, NEXT_PAGE);
        await applyInSlices(snapshot.events, isFirst);
        warnings.push(...snapshot.warnings);
        if (!hasMore) break;
        await yieldToBrowser();
      }
      performance.mark('wb:load:applied');
      state().setRunLoad(runId, {
        status: 'loaded',
        ...(warnings.length > 0 ? { warnings: [...new Set(warnings)] } : {}),
      });
    } catch (error) {
      state().setRunLoad(runId, { status: 'error', error: message(error) });
    } finally {
      const buffered = filling.get(runId) ?? [];
      filling.delete(runId);
      if (buffered.length > 0) state().applyEvents(buffered);
    }
  }

  /**
   * A long run's history is folded in slices, yielding between them: the first rows
   * paint as soon as the first slice is in, and input and pushes are handled meanwhile
   * instead of after one long task.
   */
  async function applyInSlices(events: readonly RunEvent[], isFirstPage: boolean): Promise<void> {
    let start = 0;
    while (start < events.length) {
      const end = start + (start === 0 ? FIRST_SLICE : SNAPSHOT_SLICE);
      state().applyEvents(events.slice(start, end));
      if (start === 0 && isFirstPage) performance.mark('wb:load:first-slice');
      start = end;
      if (start < events.length) await yieldToBrowser();
    }
  }

  function onRunEvents(batch: RunEvent[]): void {
    const ready: RunEvent[] = [];
    const lastSeen = new Map<string, number>();
    for (const event of batch) {
      const buffer = filling.get(event.runId);
      if (buffer) {
        buffer.push(event);
        continue;
      }
      const last = lastSeen.get(event.runId) ?? state().runs[event.runId]?.lastSeq ?? 0;
      if (event.seq > last + 1) {
        void fill(event.runId, last); // registers the buffer synchronously
        filling.get(event.runId)?.push(event);
        continue;
      }
      lastSeen.set(event.runId, Math.max(last, event.seq));
      ready.push(event);
    }
    if (ready.length > 0) state().applyEvents(ready);
    if (batch.some((e) => e.type === 'sandbox.changed')) scheduleSandboxRefresh();
  }

  /** The session's sandbox changed: re-read its status once the burst of changes settles. */
  let sandboxTimer: ReturnType<typeof setTimeout> | null = null;
  function scheduleSandboxRefresh(): void {
    if (sandboxTimer) clearTimeout(sandboxTimer);
    sandboxTimer = setTimeout(() => {
      sandboxTimer = null;
      void refreshSandbox();
    }, 250);
  }

  async function refreshRuns(): Promise<void> {
    try {
      state().setSummaries(await api.listRuns({}));
    } catch (error) {
      state().setError(`Could not load the run history: ${message(error)}`);
    }
  }

  async function refreshConfig(): Promise<void> {
    try {
      state().setConfig(await api.getConfig({}));
    } catch (error) {
      state().setConfigError(message(error));
    }
  }

  /**
   * The top bar shows the sandbox of the selected run's session (a fork's, a run in a
   * folder of its own), else the app's: it said "not started" beside a run whose own
   * sandbox was working.
   */
  async function refreshSandbox(): Promise<void> {
    const selected = state().selectedRunId;
    const sessionId = selected ? state().runs[selected]?.summary?.sessionId : undefined;
    try {
      state().setSandbox(await api.getSandboxStatus(sessionId ? { sessionId } : {}));
    } catch (error) {
      state().setSandboxError(message(error));
    }
  }

  /** After a reconnect: re-read the list and catch up every run that was still going. */
  async function resync(): Promise<void> {
    await refreshRuns();
    for (const [runId, run] of Object.entries(state().runs)) {
      if (run.lastSeq > 0 && run.summary && !run.summary.outcome) void fill(runId, run.lastSeq);
    }
    void refreshSandbox();
  }

  stops.push(api.onRunEvents(onRunEvents));
  stops.push(api.onRunsChanged((summaries) => state().setSummaries(summaries)));
  stops.push(api.onRunsDeleted((runIds) => state().removeRuns(runIds)));
  stops.push(api.onConfigChanged((config) => state().setConfig(config)));
  if (api.onConnectionChange) {
    let wasDisconnected = false;
    stops.push(
      api.onConnectionChange((isConnected) => {
        state().setConnected(isConnected);
        if (!isConnected) wasDisconnected = true;
        else if (wasDisconnected) void resync();
      }),
    );
  }
  if (api.onConnectionEnded) {
    stops.push(api.onConnectionEnded((end) => state().setConnectionEnded(end)));
  }
  // Load the selected run's history when a run is picked whose events we do not hold.
  stops.push(
    store.subscribe((s, previous) => {
      if (s.selectedRunId !== previous.selectedRunId) void refreshSandbox();
      if (s.selectedRunId && s.selectedRunId !== previous.selectedRunId)
        void loadRun(s.selectedRunId);
    }),
  );

  api.getAppInfo({}).then(
    (info) => state().setAppInfo(info),
    () => undefined, // the other requests report a broken connection where it matters
  );
  void refreshConfig();
  void refreshSandbox();
  void refreshRuns().finally(() => state().setAppState('ready'));

  async function loadRun(runId: string): Promise<void> {
    const run = state().runs[runId];
    const hasStart = run?.firstEvent?.seq === 1;
    if (hasStart || run?.load.status === 'loading' || run?.load.status === 'loaded') return;
    await fill(runId, 0);
  }

  return {
    settings: createSettingsCommands(api, store),
    dispose() {
      for (const stop of stops) stop();
      if (sandboxTimer) clearTimeout(sandboxTimer);
    },
    async startRun(input) {
      const { runId } = await api.startRun(input);
      // Its events arrive as pushes from seq 1: there is no history to fetch.
      state().setRunLoad(runId, { status: 'loaded' });
      state().selectRun(runId);
      return runId;
    },
    async stopRun(runId) {
      const { stopped } = await api.stopRun({ runId });
      return stopped;
    },
    loadRun,
    refreshSandbox,
    async saveConfig(target) {
      const draft = state().drafts[target];
      if (!draft) return true;
      const { input, errors } = validateDraft(draft, target);
      if (Object.keys(errors).length > 0) {
        state().setSaveOp(target, {
          status: 'failed',
          message: 'Fix the highlighted fields first',
          fieldErrors: errors,
        });
        return false;
      }
      state().setSaveOp(target, { status: 'running' });
      try {
        state().setConfig(await api.saveConfig(input));
        state().discardDraft(target);
        state().setSaveOp(target, {
          status: 'done',
          message: 'Saved. The next run uses these settings.',
        });
        return true;
      } catch (error) {
        const { fields, other } = issuesToFieldErrors(
          error instanceof AppApiError ? (error.issues ?? []) : [],
        );
        state().setSaveOp(target, {
          status: 'failed',
          message: message(error),
          fieldErrors: fields,
          other,
        });
        return false;
      }
    },
    async testConnection(target) {
      const draft = state().drafts[target];
      const { input, errors } = draft
        ? validateDraft(draft, target)
        : { input: { target }, errors: {} };
      if (Object.keys(errors).length > 0) {
        state().setTestOp(target, {
          status: 'failed',
          message: 'Fix the highlighted fields first',
        });
        return;
      }
      state().setTestOp(target, { status: 'running' });
      try {
        const result = await api.testConnection({
          target,
          ...(input.llm ? { llm: input.llm } : {}),
          ...(input.apiKey ? { apiKey: input.apiKey } : {}),
        });
        state().setTestOp(target, {
          status: result.ok ? 'done' : 'failed',
          message: result.message,
          result,
        });
      } catch (error) {
        state().setTestOp(target, { status: 'failed', message: message(error) });
      }
    },
    async importOpenManusConfig(content, fileName, dryRun) {
      const result = await api.importOpenManusConfig({ content, fileName, dryRun });
      if (result.isSaved) state().setConfig(result.config);
      return result;
    },
    async answerHuman(runId, toolCallId, answer) {
      await api.answerHuman({ runId, toolCallId, answer });
    },
    exportRun: (runId) => api.exportRun({ runId }),
    debug: createDebugCommands(api),
    async importRun(content, fileName) {
      const result = await api.importRun({ content, fileName });
      state().setSummaries([result.summary]);
      return {
        runId: result.summary.runId,
        warnings: result.warnings,
        isAlreadyPresent: result.isAlreadyPresent === true,
      };
    },
    async renameRun(runId, title) {
      const summary = await api.renameRun({ runId, title });
      state().setSummaries([summary]);
    },
    async deleteRun(runId) {
      await api.deleteRun({ runId });
      state().removeRuns([runId]);
    },
    diffRuns: (a, b) => api.diffRuns({ a, b }),
    runSteps: (runId, from, to) => api.getRunSteps({ runId, from, to }),
    compareRuns: (runIds) => api.compareRuns({ runIds }),
    async forkRun(input) {
      const { runId } = await api.forkRun(input);
      // Like a new run: its events come as pushes from seq 1.
      state().setRunLoad(runId, { status: 'loaded' });
      state().selectRun(runId);
      return runId;
    },
    listCheckpoints: (runId) => api.listCheckpoints({ runId }),
    files: {
      getRunFiles: (input) => api.getRunFiles(input),
      getRunFile: (input) => api.getRunFile(input),
      getRunChanges: (input) => api.getRunChanges(input),
      getRunPatch: (input) => api.getRunPatch(input),
      diffRunWorkspaces: (input) => api.diffRunWorkspaces(input),
      getStepChangeCounts: (input) => api.getStepChangeCounts(input),
      firstWorkspaceDivergence: (input) => api.firstWorkspaceDivergence(input),
      getLiveFiles: (input) => api.getLiveFiles(input),
      getLiveFile: (input) => api.getLiveFile(input),
    },
    agents: createAgentsCommands(api),
    terminal: {
      runSandboxCommand: (input) => api.runSandboxCommand(input),
      listSandboxCommands: (input) => api.listSandboxCommands(input),
    },
    playground: {
      openPlayground: (input) => api.openPlayground(input),
      sendPlayground: (input) => api.sendPlayground(input),
      savePlaygroundPrompt: (input) => api.savePlaygroundPrompt(input),
      onPlaygroundDelta: (listener) => api.onPlaygroundDelta(listener),
    },
    async resumeRun(runId) {
      const resumed = await api.resumeInterruptedRun({ runId });
      state().setRunLoad(resumed.runId, { status: 'loaded' });
      state().selectRun(resumed.runId);
      return resumed.runId;
    },
    async continueRun(input) {
      const { runId } = await api.continueRun(input);
      state().setRunLoad(runId, { status: 'loaded' });
      state().selectRun(runId);
      return runId;
    },
    batch: createBatchCommands(api),
    experiments: createExperimentCommands(api),
    images: createImageSource(api),
    gateway: {
      status: () => api.getGateway({}),
      set: (input) => api.setGateway(input),
    },
    telemetryStatus: () => api.getTelemetryStatus({}),
  };
}
