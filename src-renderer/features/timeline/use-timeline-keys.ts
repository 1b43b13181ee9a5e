/**
 * Keyboard navigation of the timeline: j / ArrowDown and k / ArrowUp move the
 * selection, Enter expands the selected row (or folds a step), Escape clears the
 * selection, `/` jumps to the search box. Keys typed into form fields are left alone.
 */
import { useEffect } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { WorkbenchStore } from '../../store/store';
import type { TimelineItem } from '../../store/timeline/types';
import { TEST_IDS } from '../../test-ids';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

export function useTimelineKeys(options: {
  store: WorkbenchStore;
  count: number;
  itemAt: (row: number) => TimelineItem | undefined;
  rowOfId: (id: number) => number;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
}) {
  const { store, count, itemAt, rowOfId, virtualizer } = options;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const state = store.getState();
      if (state.view !== 'run') return;
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
        const item = itemAt(next);
        if (!item) return;
        if (delta < 0) state.setFollowingTail(false);
        state.selectItem(item.id);
        virtualizer.scrollToIndex(next, { align: 'auto' });
      };
      switch (e.key) {
        case 'j':
        case 'ArrowDown':
          return move(1);
        case 'k':
        case 'ArrowUp':
          return move(-1);
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
  }, [store, count, itemAt, rowOfId, virtualizer]);
}
