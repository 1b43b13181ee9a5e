/**
 * Keyboard navigation of the timeline. Moving: j / ArrowDown and k / ArrowUp, Home and
 * End (first and last row). Jumping (Shift goes back): `]` / `[` next / previous step,
 * `e` next error, `d` next duplicate, `s` next stuck marker; a target hidden by the
 * filters or inside a folded step is shown. Enter expands the selected row (or folds a
 * step), Escape clears the selection, `/` goes to the search box, Shift+X stops a live run
 * (`p` pauses it: the debugger's keys). Keys typed into form fields are left alone.
 */
import { useEffect } from 'react';
import type { RowAlign } from './row-window';
import type { WorkbenchStore } from '../../store/store';
import { nextOfKind, type RowKind } from '../../store/timeline/find';
import { positionOfId } from '../../store/timeline/model';
import type { TimelineItem } from '../../store/timeline/types';
import { TEST_IDS } from '../../test-ids';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/** key -> the kind of row it jumps to, and the direction */
const JUMPS = new Map<string, [RowKind, 1 | -1]>([
  [']', ['step', 1]],
  ['[', ['step', -1]],
  ['e', ['error', 1]],
  ['E', ['error', -1]],
  ['d', ['duplicate', 1]],
  ['D', ['duplicate', -1]],
  ['s', ['stuck', 1]],
  ['S', ['stuck', -1]],
]);

export function useTimelineKeys(options: {
  store: WorkbenchStore;
  count: number;
  itemAt: (row: number) => TimelineItem | undefined;
  rowOfId: (id: number) => number;
  scrollToRow: (row: number, align: RowAlign) => void;
  /** every item (the rows may be filtered; jumps search all of them) */
  items: readonly TimelineItem[];
}) {
  const { store, count, itemAt, rowOfId, scrollToRow, items } = options;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const state = store.getState();
      if (state.view !== 'run') return;
      const select = (row: number) => {
        const item = itemAt(row);
        if (!item) return;
        state.selectItem(item.id);
        scrollToRow(row, 'auto');
      };
      const move = (delta: number) => {
        e.preventDefault();
        if (count === 0) return;
        const current = state.selectedItemId === null ? -1 : rowOfId(state.selectedItemId);
        const next =
          current < 0
            ? delta > 0
              ? 0
              : count - 1
            : Math.min(count - 1, Math.max(0, current + delta));
        if (delta < 0) state.setFollowingTail(false);
        select(next);
      };
      const jump = JUMPS.get(e.key);
      if (jump) {
        e.preventDefault();
        const from =
          state.selectedItemId === null
            ? jump[1] > 0
              ? -1
              : items.length
            : positionOfId(items, state.selectedItemId);
        const target = nextOfKind(items, from, jump[1], jump[0]);
        if (target) state.jumpTo(target.id);
        return;
      }
      switch (e.key) {
        case 'j':
        case 'ArrowDown':
          return move(1);
        case 'k':
        case 'ArrowUp':
          return move(-1);
        case 'Home':
          e.preventDefault();
          state.setFollowingTail(false);
          return select(0);
        case 'End':
          e.preventDefault();
          return select(count - 1);
        case 'Enter': {
          if (state.selectedItemId === null) return;
          const row = rowOfId(state.selectedItemId);
          const item = row >= 0 ? itemAt(row) : undefined;
          if (!item) return;
          e.preventDefault();
          if (item.kind === 'step') state.toggleStep(item.id);
          else state.toggleExpanded(item.id);
          return;
        }
        case 'Escape':
          if (state.selectedItemId !== null) state.selectItem(null);
          return;
        case 'X':
          document.querySelector<HTMLButtonElement>(`[data-testid="${TEST_IDS.runStop}"]`)?.click();
          return;
        case '/': {
          const search = document.querySelector<HTMLInputElement>(
            `[data-testid="${TEST_IDS.filterSearch}"]`,
          );
          if (search) {
            e.preventDefault();
            search.focus();
            search.select();
          }
          return;
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store, count, itemAt, rowOfId, scrollToRow, items]);
}
