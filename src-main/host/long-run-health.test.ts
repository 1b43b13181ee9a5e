/**
 * Issue 25 item 2, the host's side: a 5,000-step looping run in the history. What
 * `runs list` says (a RunStore of the CLI's own over the same folder, rebuilt from the
 * log and then read from index.json), what `runs:list` and every `runs:get` page answer
 * over the WebSocket host, and the renderer's store fed those pages as its bridge feeds
 * them (summary first, then the events) must all count what `tallyHealth` takes from the
 * raw events. src-renderer/store/run-load-health.test.ts drives the bridge itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import {
  applyEventBatch,
  emptyRunsData,
  mergeSummaries,
} from '../../src-renderer/store/run-events';
import { tallyHealth } from '../../src-renderer/testing/health-tally';
import { stuckRun } from '../../src-renderer/testing/stuck-run';
import { RunStore } from '../runtime/runs/run-store';
import { serve } from './testing/ws-contract-fixture';

const RUN_ID = 'looping-5000';

describe('a 5,000-step looping run in the history', () => {
  it('has the same counts in runs list, in every runs:get page and in the store fed those pages', async () => {
    const { api, home } = await serve();
    const events = stuckRun(RUN_ID, 5_000, { startTs: Date.now() });
    const expected = tallyHealth(events);
    const dir = join(home, 'runs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${RUN_ID}.jsonl`),
      events.map((e) => `${JSON.stringify(e)}\n`).join(''),
    );

    // `runs list`: the CLI opens a store of its own over the same folder, twice
    for (const pass of ['rebuilt from the log', 'read from index.json']) {
      const cli = new RunStore(dir, { onWarning: () => {} });
      expect(cli.list().find((s) => s.runId === RUN_ID)?.health, pass).toEqual(expected);
      cli.close();
    }
    expect((await api.listRuns({})).find((s) => s.runId === RUN_ID)?.health).toEqual(expected);

    // the UI's pages: a small first one, then the rest, as src-renderer/store/bridge.ts asks
    let data = emptyRunsData;
    const paged: RunEvent[] = [];
    let cursor = 0;
    for (let limit = 1_000; ; limit = 2_500) {
      const page = await api.getRun({
        runId: RUN_ID,
        limit,
        ...(cursor > 0 ? { afterSeq: cursor } : {}),
      });
      expect(page.summary.health).toEqual(expected);
      data = applyEventBatch(mergeSummaries(data, [page.summary]), page.events);
      expect(data.runs[RUN_ID]?.summary?.health).toEqual(expected);
      paged.push(...page.events);
      if (!page.hasMore) break;
      cursor = page.events.at(-1)!.seq;
    }
    expect(paged.length).toBe(events.length);
    expect(tallyHealth(paged)).toEqual(expected);
    expect(data.runs[RUN_ID]?.folded?.health).toEqual(expected);
  }, 60_000);
});
