import { describe, expect, it, vi } from 'vitest';
import { AppApiError } from '@shared/ipc';
import { configView } from '../testing/config-fixture';
import { createMemoryApi } from '../testing/memory-api';
import { RunScript } from '../testing/run-script';
import { startBridge } from './bridge';
import { createWorkbenchStore } from './store';

const tick = () => new Promise((r) => setTimeout(r, 0));

function finishedRun(runId: string, steps = 2) {
  const script = new RunScript(runId).start('t');
  for (let i = 0; i < steps; i++) {
    script.addStep({ content: `step ${i}`, calls: [{ name: 'bash', args: { i } }] });
    script.endStep();
  }
  return script.finish().events;
}

describe('bridge', () => {
  it('loads history and config, then marks the app ready', async () => {
    const api = createMemoryApi({ config: configView() });
    api.history.set('old', finishedRun('old'));
    const store = createWorkbenchStore();
    startBridge(api, store);
    expect(store.getState().appState).toBe('loading');
    await tick();
    expect(store.getState().appState).toBe('ready');
    expect(store.getState().order).toEqual(['old']);
    expect(store.getState().runs['old']?.eventCount).toBe(0);
    expect(store.getState().config?.agents.manus.llm.model.value).toBe('gpt-4o');
    expect(store.getState().sandboxError).toMatch(/Docker/);
  });

  it('applies pushed batches as they arrive', async () => {
    const api = createMemoryApi();
    const store = createWorkbenchStore();
    startBridge(api, store);
    const events = finishedRun('r1');
    api.push(events.slice(0, 5));
    expect(store.getState().runs['r1']?.lastSeq).toBe(5);
    api.push(events.slice(5));
    expect(store.getState().runs['r1']?.summary?.outcome).toBe('finished');
  });

  it('fills a run joined mid-way from runs:get, buffering pushes meanwhile, without duplicates', async () => {
    const api = createMemoryApi();
    const store = createWorkbenchStore();
    startBridge(api, store);
    await tick();
    const events = finishedRun('r2', 3);
    // the run started elsewhere: the history holds its first 10 events already
    for (const e of events.slice(0, 10))
      api.history.set('r2', [...(api.history.get('r2') ?? []), e]);
    api.push(events.slice(10, 12)); // seq 11, 12: a gap for us
    api.push(events.slice(12, 14)); // arrives while runs:get is in flight
    await tick();
    const run = store.getState().runs['r2']!;
    expect([run.eventCount, run.lastSeq]).toEqual([14, events[13]!.seq]);
    expect(api.calls.filter((c) => c.method === 'getRun')).toEqual([
      { method: 'getRun', input: { runId: 'r2', limit: 1000 } },
    ]);
    api.push(events.slice(14));
    expect(store.getState().runs['r2']!.eventCount).toBe(events.length);
  });

  it('loads a run picked from the history once', async () => {
    const api = createMemoryApi();
    api.history.set('old', finishedRun('old'));
    const store = createWorkbenchStore();
    startBridge(api, store);
    await tick();
    store.getState().selectRun('old');
    expect(store.getState().runs['old']?.load.status).toBe('loading');
    await tick();
    expect(store.getState().runs['old']?.load.status).toBe('loaded');
    expect(store.getState().runs['old']?.eventCount).toBe(api.history.get('old')!.length);
    store.getState().selectRun(null);
    store.getState().selectRun('old');
    await tick();
    expect(api.calls.filter((c) => c.method === 'getRun')).toHaveLength(1);
  });

  it("the top bar's sandbox is the selected run's session's, else the app's", async () => {
    const api = createMemoryApi();
    api.history.set('old', finishedRun('old'));
    const asked = () =>
      api.calls.filter((c) => c.method === 'getSandboxStatus').map((c) => c.input);
    const store = createWorkbenchStore();
    startBridge(api, store);
    await tick();
    expect(asked()).toEqual([{}]);
    store.getState().selectRun('old');
    await tick();
    expect(asked().at(-1)).toEqual({ sessionId: 's-test' });
    store.getState().selectRun(null);
    await tick();
    expect(asked().at(-1)).toEqual({});
  });

  it('loads a long run in pages: a small first page, then the rest after it', async () => {
    const api = createMemoryApi();
    const long = finishedRun('long', 400); // a few thousand events
    api.history.set('long', long);
    const store = createWorkbenchStore();
    startBridge(api, store);
    await tick();
    store.getState().selectRun('long');
    for (let i = 0; i < 20 && store.getState().runs['long']?.load.status !== 'loaded'; i++)
      await tick();
    const pages = api.calls.filter((c) => c.method === 'getRun').map((c) => c.input);
    expect(pages[0]).toEqual({ runId: 'long', limit: 1000 });
    expect(pages[1]).toEqual({ runId: 'long', afterSeq: 1000, limit: 2_500 });
    const loaded = store.getState().runs['long']!;
    expect([loaded.eventCount, loaded.lastSeq]).toEqual([long.length, long.at(-1)!.seq]);
  });

  it('asks for the next page of a long run before folding the one it has (issue 27)', async () => {
    const api = createMemoryApi();
    const long = finishedRun('long', 800);
    api.history.set('long', long);
    const store = createWorkbenchStore();
    // what the store held when each page was asked for
    const heldAtRequest: number[] = [];
    const getRun = api.getRun.bind(api);
    vi.spyOn(api, 'getRun').mockImplementation((input) => {
      heldAtRequest.push(store.getState().runs['long']?.eventCount ?? 0);
      return getRun(input);
    });
    startBridge(api, store);
    await tick();
    store.getState().selectRun('long');
    for (let i = 0; i < 40 && store.getState().runs['long']?.load.status !== 'loaded'; i++)
      await tick();
    expect(store.getState().runs['long']!.eventCount).toBe(long.length);
    // page 2 was asked for as page 1 arrived (nothing folded yet), page 3 as page 2 did
    expect(heldAtRequest.slice(0, 3)).toEqual([0, 0, 1000]);
  });

  it('shows why a run could not be loaded', async () => {
    const api = createMemoryApi();
    const store = createWorkbenchStore();
    startBridge(api, store);
    store.getState().selectRun('missing');
    await tick();
    expect(store.getState().runs['missing']?.load).toEqual({
      status: 'error',
      error: 'No run with id missing',
    });
  });

  it('catches up a live run after a reconnect', async () => {
    const api = createMemoryApi();
    const store = createWorkbenchStore();
    startBridge(api, store);
    await tick();
    const events = finishedRun('r3');
    api.push(events.slice(0, 4));
    api.setConnected(false);
    // events emitted while we were away reach the history but not us
    api.history.set('r3', events);
    api.setConnected(true);
    await tick();
    await tick();
    expect(store.getState().runs['r3']?.eventCount).toBe(events.length);
    expect(api.calls.find((c) => c.method === 'getRun')?.input).toEqual({
      runId: 'r3',
      afterSeq: 4,
      limit: 1000,
    });
  });

  it('saves a valid draft, drops it, and shows the new config', async () => {
    const api = createMemoryApi({ config: configView() });
    const saved = configView({ swe: 'gpt-4o-mini' });
    api.override('saveConfig', async () => saved);
    const store = createWorkbenchStore();
    const bridge = startBridge(api, store);
    store.getState().editField('swe', 'model', 'gpt-4o-mini');
    expect(await bridge.saveConfig('swe')).toBe(true);
    expect(api.calls.find((c) => c.method === 'saveConfig')?.input).toEqual({
      target: 'swe',
      llm: { model: 'gpt-4o-mini' },
    });
    expect(store.getState().drafts.swe).toBeUndefined();
    expect(store.getState().config?.agents.swe.llm.model.value).toBe('gpt-4o-mini');
    expect(store.getState().saveOps.swe).toMatchObject({ status: 'done' });
  });

  it('does not send an invalid draft, and maps the main process’s field errors', async () => {
    const api = createMemoryApi({ config: configView() });
    const store = createWorkbenchStore();
    const bridge = startBridge(api, store);
    store.getState().editField('manus', 'temperature', '7');
    expect(await bridge.saveConfig('manus')).toBe(false);
    expect(api.calls.some((c) => c.method === 'saveConfig')).toBe(false);
    expect(store.getState().saveOps.manus).toMatchObject({
      status: 'failed',
      fieldErrors: { temperature: 'must be at most 2' },
    });

    api.override('saveConfig', async () => {
      throw new AppApiError({
        code: 'invalid_input',
        message: 'config.toml would not validate',
        issues: [{ path: 'llm.manus.model', message: 'unknown model', line: 3 }],
      });
    });
    store.getState().editField('manus', 'temperature', '0.5');
    store.getState().editField('manus', 'model', 'nope');
    expect(await bridge.saveConfig('manus')).toBe(false);
    expect(store.getState().saveOps.manus).toMatchObject({
      status: 'failed',
      message: 'config.toml would not validate',
      fieldErrors: { model: 'unknown model (line 3)' },
    });
    expect(store.getState().drafts.manus?.fields.model).toBe('nope');
  });

  it('starts a run and shows it', async () => {
    const api = createMemoryApi();
    const store = createWorkbenchStore();
    const bridge = startBridge(api, store);
    store.getState().showView('new');
    const runId = await bridge.startRun({ task: 'x', agent: 'swe' });
    expect(store.getState().selectedRunId).toBe(runId);
    expect(store.getState().view).toBe('run');
    await tick();
    // its events come as pushes from seq 1; nothing to fetch (and nothing to fail)
    expect(api.calls.some((c) => c.method === 'getRun')).toBe(false);
  });
});
