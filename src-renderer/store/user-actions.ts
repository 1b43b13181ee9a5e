/**
 * What the user typed into runs' terminals (issue 32): each run's `user.command` records
 * from its user-actions log (`sandbox:commands`, asked once per run and page), and each
 * command run from this page as it returns. The Terminal panel lists them and the
 * timeline shows them as user actions among the agent's rows.
 */
import type { UserCommandRecord } from '@shared/domain/terminal';
import { create } from 'zustand';

export interface UserActionsState {
  /** per run, by `seq`; absent until asked for */
  byRun: Record<string, readonly UserCommandRecord[]>;
  /** why a run's log could not be read, if it could not */
  errors: Record<string, string>;
  load(runId: string, fetch: () => Promise<{ commands: UserCommandRecord[] }>): void;
  add(record: UserCommandRecord): void;
}

const asked = new Set<string>();

function merged(
  list: readonly UserCommandRecord[],
  more: readonly UserCommandRecord[],
): UserCommandRecord[] {
  const bySeq = new Map(list.map((r) => [r.seq, r]));
  for (const record of more) bySeq.set(record.seq, record);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

export const useUserActions = create<UserActionsState>((set, get) => ({
  byRun: {},
  errors: {},
  load: (runId, fetch) => {
    if (asked.has(runId)) return;
    asked.add(runId);
    fetch().then(
      (view) =>
        set({
          byRun: { ...get().byRun, [runId]: merged(get().byRun[runId] ?? [], view.commands) },
        }),
      (failure: unknown) => {
        asked.delete(runId);
        const message = failure instanceof Error ? failure.message : String(failure);
        set({ errors: { ...get().errors, [runId]: message } });
      },
    );
  },
  add: (record) =>
    set({
      byRun: {
        ...get().byRun,
        [record.runId]: merged(get().byRun[record.runId] ?? [], [record]),
      },
    }),
}));

/** For tests: forget what was asked (a new page). */
export function resetUserActions(): void {
  asked.clear();
  useUserActions.setState({ byRun: {}, errors: {} });
}
