/**
 * Keeps a UI's copy of each run's events complete and in order, whatever happened to
 * the connection: a reload, a reconnect, or a UI that joins a run half-way. Pushes of
 * a run are delivered only when they continue exactly from what was delivered before
 * (seq N+1 after N); anything earlier is a duplicate and dropped; a jump is a gap,
 * filled from the main process with `runs:get {afterSeq}` before going on.
 *
 * Use: `const sync = createRunSync(api, (batch) => store.applyEvents(batch))`, then
 * `sync.open(runId)` to show a run from history (its snapshot is delivered the same way).
 */
import type { RunEvent } from '@shared/events';
import type { AppApi, RunSnapshot } from '@shared/ipc';

type SyncApi = Pick<AppApi, 'getRun' | 'onRunEvents'>;

interface RunCursor {
  lastSeq: number;
  /** events held back while a snapshot or a gap is being fetched */
  held: RunEvent[] | null;
}

export interface RunSync {
  /** fetches a run's snapshot (delivering what is new) and follows it from there */
  open(runId: string): Promise<RunSnapshot>;
  /** the last seq delivered for a run (0 if none) */
  lastSeq(runId: string): number;
  /** after a reconnect: fetches what each followed run missed */
  resync(): Promise<void>;
  dispose(): void;
}

export function createRunSync(
  api: SyncApi,
  deliver: (batch: RunEvent[]) => void,
  onError: (error: Error) => void = () => {},
): RunSync {
  const cursors = new Map<string, RunCursor>();

  function cursorOf(runId: string): RunCursor {
    let cursor = cursors.get(runId);
    if (!cursor) {
      cursor = { lastSeq: 0, held: null };
      cursors.set(runId, cursor);
    }
    return cursor;
  }

  /** Delivers the events that continue the run; returns false at a gap. */
  function take(cursor: RunCursor, events: readonly RunEvent[], out: RunEvent[]): boolean {
    for (const event of events) {
      if (event.seq <= cursor.lastSeq) continue;
      if (event.seq !== cursor.lastSeq + 1) return false;
      out.push(event);
      cursor.lastSeq = event.seq;
    }
    return true;
  }

  async function fill(runId: string): Promise<RunSnapshot | undefined> {
    const cursor = cursorOf(runId);
    cursor.held ??= [];
    try {
      const snapshot = await api.getRun({ runId, afterSeq: cursor.lastSeq });
      const out: RunEvent[] = [];
      take(cursor, snapshot.events, out);
      const held = (cursor.held ?? []).sort((a, b) => a.seq - b.seq);
      cursor.held = null;
      // Held pushes continue the snapshot; a gap left now means events were lost
      // between the snapshot and the pushes: fetch again.
      const isComplete = take(cursor, held, out);
      if (out.length > 0) deliver(out);
      if (!isComplete) return fill(runId);
      return snapshot;
    } catch (error) {
      cursor.held = null;
      onError(error as Error);
      return undefined;
    }
  }

  const unsubscribe = api.onRunEvents((batch) => {
    const out: RunEvent[] = [];
    const gaps = new Set<string>();
    for (const event of batch) {
      const cursor = cursorOf(event.runId);
      if (cursor.held) {
        cursor.held.push(event);
        continue;
      }
      if (event.seq <= cursor.lastSeq) continue;
      if (event.seq === cursor.lastSeq + 1) {
        out.push(event);
        cursor.lastSeq = event.seq;
        continue;
      }
      // Joined half-way or lost events: hold this run's pushes and fetch what is missing.
      cursor.held = [event];
      gaps.add(event.runId);
    }
    if (out.length > 0) deliver(out);
    for (const runId of gaps) void fill(runId);
  });

  return {
    async open(runId) {
      const snapshot = await fill(runId);
      if (!snapshot) throw new Error(`Run ${runId} could not be loaded`);
      return snapshot;
    },
    lastSeq: (runId) => cursors.get(runId)?.lastSeq ?? 0,
    async resync() {
      await Promise.all([...cursors.keys()].map((runId) => fill(runId)));
    },
    dispose: unsubscribe,
  };
}
