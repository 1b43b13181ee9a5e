/**
 * The run's timeline: a virtualized list (only the rows in view exist in the DOM), so a
 * 10,000-step run scrolls like a 10-step one. New events change only the rows whose
 * items changed. While the run is live the list follows the newest row until the user
 * scrolls up; keyboard: see use-timeline-keys.ts.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { TEST_IDS } from '../../test-ids';
import type { UserCommandRecord } from '@shared/domain/terminal';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import type { TimelineItem } from '../../store/timeline/types';
import { withUserActions } from '../../store/timeline/user-action-items';
import { useUserActions } from '../../store/user-actions';
import { PendingCalls } from './PendingCalls';
import { TimelineRow } from './rows/TimelineRow';
import type { RowActions } from './rows/row-props';
import { useRows } from './use-row-index';
import { useTimelineKeys } from './use-timeline-keys';
import { useSearchHighlight } from './use-search-highlight';
import { Minimap } from './Minimap';
import { useRowWindow } from './use-row-window';

const EMPTY: readonly TimelineItem[] = [];
const NO_COMMANDS: readonly UserCommandRecord[] = [];

/** How close to the bottom (px) still counts as "at the newest row". */
const TAIL_SLACK = 48;

export function Timeline({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const bridge = useBridge();
  const timeline = useWorkbench((s) => s.runs[runId]?.timeline);
  const agentItems = timeline?.items ?? EMPTY;
  // what the user typed into the run's terminal, among the agent's rows (issue 32)
  const commands = useUserActions((s) => s.byRun[runId] ?? NO_COMMANDS);
  const loadCommands = useUserActions((s) => s.load);
  useEffect(() => {
    loadCommands(runId, () => bridge.terminal.listSandboxCommands({ runId }));
  }, [bridge, loadCommands, runId]);
  const items = useMemo(() => withUserActions(agentItems, commands), [agentItems, commands]);
  // typed commands move the agent's rows: the row window then builds the list whole
  const itemsChange = items === agentItems ? timeline : undefined;
  const filters = useWorkbench((s) => s.filters);
  const collapsed = useWorkbench((s) => s.collapsedSteps);
  const selectedItemId = useWorkbench((s) => s.selectedItemId);
  const expanded = useWorkbench((s) => s.expandedItems);
  const isFollowing = useWorkbench((s) => s.isFollowingTail);
  const jump = useWorkbench((s) => s.jump);
  const search = useWorkbench((s) => s.search);
  const isLive = useWorkbench((s) => {
    const summary = s.runs[runId]?.summary;
    return summary !== undefined && summary.outcome === undefined && !summary.isInterrupted;
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  const { count, itemAt, rowOfId, rowsChange } = useRows(items, filters, collapsed, itemsChange);

  const { first, last, key, attach, holdList, measureRow, scrollToRow } = useRowWindow({
    count,
    itemAt,
    ...(rowsChange ? { change: rowsChange } : {}),
    overscan: 6,
    expanded,
  });
  const setScroller = useCallback(
    (element: HTMLDivElement | null) => {
      scrollRef.current = element;
      if (!element) return undefined;
      const detach = attach(element);
      return () => {
        detach();
        scrollRef.current = null;
      };
    },
    [attach],
  );

  const actions: RowActions = useMemo(
    () => ({
      select: (id) => store.getState().selectItem(id),
      toggleExpanded: (id) => store.getState().toggleExpanded(id),
      toggleStep: (id) => store.getState().toggleStep(id),
      jumpTo: (id) => store.getState().jumpTo(id),
    }),
    [store],
  );

  // Follow the tail: a new or growing last row scrolls into view while following.
  const lastItem = count > 0 ? itemAt(count - 1) : undefined;
  useEffect(() => {
    if (isFollowing && isLive && count > 0) scrollToRow(count - 1, 'end');
  }, [isFollowing, isLive, count, lastItem, scrollToRow]);

  // Jumps (duplicate links, stuck markers, context messages) scroll their target to the middle.
  useEffect(() => {
    if (!jump) return;
    const row = rowOfId(jump.itemId);
    if (row >= 0) scrollToRow(row, 'center');
    // only a new jump (nonce) scrolls; later renders must not pull the list back
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump?.nonce]);

  useTimelineKeys({ store, count, itemAt, rowOfId, scrollToRow, items });
  useSearchHighlight(scrollRef, search);

  const stopFollowing = () => store.getState().setFollowingTail(false);
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const isAtBottom = el.scrollHeight - el.scrollTop - el.clientHeight < TAIL_SLACK;
    if (isAtBottom && isLive) store.getState().setFollowingTail(true);
  };

  if (items.length > 0 && count === 0) {
    return (
      <div className="timeline-empty" data-testid={TEST_IDS.timelineEmpty}>
        <p>No rows match the filters.</p>
        <button type="button" onClick={() => store.getState().clearFilters()}>
          Clear filters
        </button>
      </div>
    );
  }

  const rows = [];
  for (let row = first; row <= last; row++) {
    const item = itemAt(row);
    if (!item) continue;
    rows.push(
      <div
        key={key(row)}
        data-index={row}
        ref={measureRow}
        className={item.planStepId !== undefined ? 'vrow is-nested' : 'vrow'}
      >
        <TimelineRow
          item={item}
          isSelected={item.id === selectedItemId}
          isExpanded={expanded.has(item.id)}
          isCollapsed={
            (item.kind === 'step' || (item.kind === 'marker' && item.planStep !== undefined)) &&
            collapsed.has(item.id)
          }
          actions={actions}
        />
      </div>,
    );
  }
  return (
    <div className="timeline-frame">
      {/* the list is absolutely placed in its box: a change of its height (rows measured
          while scrolling) lays out the list alone, not the page around it */}
      <div className="timeline-box">
        <div
          ref={setScroller}
          className="timeline"
          data-testid={TEST_IDS.timeline}
          data-count={count}
          role="listbox"
          aria-label="Run timeline"
          tabIndex={0}
          onScroll={onScroll}
          onWheel={(e) => {
            if (e.deltaY < 0) stopFollowing();
          }}
          onKeyDown={(e) => {
            if (e.key === 'PageUp') stopFollowing();
          }}
          onPointerDown={(e) => {
            // a drag on the scrollbar itself (the list element, not a row)
            if (e.target === scrollRef.current) stopFollowing();
          }}
        >
          {/* its height is the whole list's, written by the row window (use-row-window.ts) */}
          <div className="timeline-inner" ref={holdList}>
            {/* the rows' containing block keeps its size when the list's height changes,
              so a new total height does not lay out every row again */}
            <div className="timeline-rows">{rows}</div>
          </div>
          <PendingCalls runId={runId} isLive={isLive} />
        </div>
      </div>
      <Minimap count={count} itemAt={itemAt} change={rowsChange} onJump={actions.jumpTo} />
    </div>
  );
}
