/**
 * The timeline with the user's terminal commands in it (issue 32): each `user.command`
 * becomes a `user` row after the last agent row that came before it in time (a command
 * typed while paused sits where the run paused; one typed after the run ended, after its
 * end). They are not events of the run: they are placed here, not in the history.
 *
 * A row's id falls between its neighbours' (`prev + 1 - 1/(k + 2)` for the k-th command
 * after the same row), so the list stays sorted by id and a command keeps its id when
 * more are typed after it.
 */
import type { UserCommandRecord } from '@shared/domain/terminal';
import type { TimelineItem, UserActionItem } from './types';

export function withUserActions(
  items: readonly TimelineItem[],
  commands: readonly UserCommandRecord[],
): readonly TimelineItem[] {
  if (commands.length === 0) return items;
  const sorted = [...commands].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const out: TimelineItem[] = [];
  let next = 0;
  let lastAgent: TimelineItem | undefined;
  let afterSame = 0;
  const placeUntil = (ts: number) => {
    while (next < sorted.length && sorted[next]!.ts < ts) {
      const id = (lastAgent?.id ?? 0) + 1 - 1 / (afterSame + 2);
      out.push(userItem(sorted[next]!, lastAgent, id));
      afterSame++;
      next++;
    }
  };
  for (const item of items) {
    placeUntil(item.ts);
    out.push(item);
    lastAgent = item;
    afterSame = 0;
  }
  placeUntil(Infinity);
  return out;
}

function userItem(
  record: UserCommandRecord,
  before: TimelineItem | undefined,
  id: number,
): UserActionItem {
  return {
    kind: 'user',
    id,
    agent: '',
    step: before?.step ?? 0,
    // not inside a step: folding a step does not hide what the user typed after it
    stepId: 0,
    ts: record.ts,
    command: record,
  };
}
