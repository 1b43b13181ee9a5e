/**
 * Issue 25 item 2: the health counts of a long run opened from the history must be the
 * counts its history holds, the same as `runs list` says, however many `runs:get` pages
 * and slices it loads in, with pushes arriving meanwhile, and after a reload. The
 * expected counts come from `tallyHealth`, which reads the raw events without the
 * summary fold under test.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { RunGetInput, RunHealth, RunSnapshot, RunSummary } from '@shared/ipc';
import { summarize } from '@shared/run-summary';
import { tallyHealth } from '../testing/health-tally';
import { createMemoryApi, type MemoryApi } from '../testing/memory-api';
import { stuckRun } from '../testing/stuck-run';
import { startBridge } from './bridge';
import { createWorkbenchStore, type WorkbenchStore } from './store';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** Opens a run from the history and waits for its last page; returns every health shown meanwhile. */
async function openRun(store: WorkbenchStore, runId: string): Promise<RunHealth[]> {
  const shown: RunHealth[] = [];
  const stop = store.subscribe((s) => {
    const health = s.runs[runId]?.summary?.health;
    if (health && health !== shown.at(-1)) shown.push(health);
  });
  store.getState().selectRun(runId);
  for (let i = 0; i < 5_000 && store.getState().runs[runId]?.load.status !== 'loaded'; i++)
    await tick();
  stop();
  expect(store.getState().runs[runId]?.load.status).toBe('loaded');
  return shown;
}

async function startApp(api: MemoryApi): Promise<WorkbenchStore> {
  const store = createWorkbenchStore();
  startBridge(api, store);
  await tick();
  return store;
}

const listed = async (api: MemoryApi, runId: string): Promise<RunSummary | undefined> =>
  (await api.listRuns({})).find((s) => s.runId === runId);

describe('a long run opened from the history', () => {
  it.each([100, 400, 5_000])(
    'of %i steps: its summary (the header and the history row) counts what its history holds, as runs list does, while and after it loads',
    async (steps) => {
      const api = createMemoryApi();
      const events = stuckRun('long', steps);
      api.history.set('long', events);
      const expected = tallyHealth(events);
      // the fixture has something of every count, past the first page
      expect(Object.values(expected).every((n) => n > 0)).toBe(true);
      expect(events.length).toBeGreaterThan(1_000);
      expect((await listed(api, 'long'))?.health).toEqual(expected);

      const store = await startApp(api);
      const shown = await openRun(store, 'long');
      const summary = store.getState().runs['long']!.summary!;
      expect(summary.health).toEqual(expected);
      // it never showed a count the run does not have while the pages came in
      expect(shown.filter((h) => JSON.stringify(h) !== JSON.stringify(expected))).toEqual([]);
      // the rest of the summary is the history's too
      const folded = summarize(events)!;
      expect({ steps: summary.steps, usage: summary.usage, outcome: summary.outcome }).toEqual({
        steps: folded.steps,
        usage: folded.usage,
        outcome: 'max_steps',
      });
      expect(store.getState().runs['long']!.eventCount).toBe(events.length);

      // a reload (a new window over the same host) counts the same again
      const reloaded = await startApp(api);
      await openRun(reloaded, 'long');
      expect(reloaded.getState().runs['long']!.summary!.health).toEqual(expected);
    },
  );

  it('keeps the counts when a rename or a runs:changed arrives while it loads', async () => {
    const api = createMemoryApi();
    const events = stuckRun('long', 400);
    api.history.set('long', events);
    const store = await startApp(api);
    store.getState().selectRun('long');
    await tick();
    await api.renameRun({ runId: 'long', title: 'Looping' });
    store.getState().setSummaries([(await listed(api, 'long'))!]);
    await openRun(store, 'long');
    expect(store.getState().runs['long']!.summary).toMatchObject({
      title: 'Looping',
      health: tallyHealth(events),
    });
  });

  it('of a run interrupted after thousands of events counts what its history holds', async () => {
    const api = createMemoryApi();
    const events = stuckRun('cut', 400, { isUnfinished: true });
    api.history.set('cut', events);
    // the store marks a run whose log ends without run.finished and whose owner is gone
    const interrupted = (s: RunSummary): RunSummary => ({ ...s, isInterrupted: true });
    api.override('listRuns', async () => [interrupted(page(events, { runId: 'cut' }).summary)]);
    api.override('getRun', async (input) => {
      const snapshot = page(events, input);
      return { ...snapshot, summary: interrupted(snapshot.summary), isLive: false };
    });
    const store = await startApp(api);
    await openRun(store, 'cut');
    expect(store.getState().runs['cut']!.summary).toMatchObject({
      isInterrupted: true,
      health: tallyHealth(events),
    });
  });
});

/** `runs:get` over a history: a page after `afterSeq`, with the summary of everything. */
function page(history: readonly RunEvent[], input: RunGetInput): RunSnapshot {
  const after = history.filter((e) => e.seq > (input.afterSeq ?? 0));
  const events = input.limit === undefined ? after : after.slice(0, input.limit);
  const summary = summarize(history)!;
  return {
    summary: { ...summary, lastSeq: history.at(-1)!.seq },
    events,
    isLive: summary.outcome === undefined,
    warnings: [],
    hasMore: events.length < after.length,
  };
}

describe('a long run that is still going when it is opened', () => {
  it('counts the pages, the pushes that came while they loaded, and the pushes after', async () => {
    const all = stuckRun('live', 1_000);
    const api = createMemoryApi();
    // the host holds the first 3,000 events when the window opens; the run goes on
    let held = 3_000;
    api.history.set('live', all.slice(0, held));
    api.override('getRun', async (input) => {
      const snapshot = page(all.slice(0, held), input);
      // while each page is on its way the run emits a few hundred events more: pushed
      const more = all.slice(held, held + 300);
      held += more.length;
      api.push(more);
      return snapshot;
    });
    const store = await startApp(api);
    await openRun(store, 'live');
    const afterLoad = store.getState().runs['live']!;
    expect(afterLoad.lastSeq).toBe(held);
    expect(afterLoad.summary!.health).toEqual(tallyHealth(all.slice(0, held)));
    for (let at = held; at < all.length; at += 700) api.push(all.slice(at, at + 700));
    const run = store.getState().runs['live']!;
    expect(run.eventCount).toBe(all.length);
    expect(run.summary!.health).toEqual(tallyHealth(all));
    expect(run.summary!.outcome).toBe('max_steps');
  });
});
