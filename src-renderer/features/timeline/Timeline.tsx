/**
 * The run's timeline: a virtualized list (only the rows in view exist in the DOM), so a
 * 10,000-step run scrolls like a 10-step one. New events change only the rows whose
 * items changed. While the run is live the list follows the newest row until the user
 * scrolls up; keyboard: see use-timeline-keys.ts.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import type { TimelineItem } from '../../store/timeline/types';
import { PendingCalls } from './PendingCalls';
import { TimelineRow } from './rows/TimelineRow';
import type { RowActions } from './rows/row-props';
import { useRows } from './use-row-index';
import { useTimelineKeys } from './use-timeline-keys';
import { useSearchHighlight } from './use-search-highlight';
import { Minimap } from './Minimap';
import { LearnedHeights, RowSizes } from './row-sizes';

const EMPTY: readonly TimelineItem[] = [];

/**
 * Row heights come from the ResizeObserver's entries, which arrive after layout and
 * before paint. The default also reads offsetHeight when a row mounts, which forces a
 * layout per new row (hundreds of ms when a long run first renders); until its entry
 * arrives a new row keeps its cached or estimated height.
 */
function measuredHeight(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  const cached = instance.itemSizeCache.get(instance.options.getItemKey(index));
  return cached ?? instance.options.estimateSize(index);
}

/** How close to the bottom (px) still counts as "at the newest row". */
const TAIL_SLACK = 48;

export function Timeline({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const items = useWorkbench((s) => s.runs[runId]?.timeline.items ?? EMPTY);
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
  const { count, itemAt, rowOfId } = useRows(items, filters, collapsed);

  const learned = useMemo(() => new LearnedHeights(), []);
  const previousSizes = useRef<RowSizes | null>(null);
  const sizes = useMemo(
    () => new RowSizes(count, itemAt, learned, previousSizes.current),
    [count, itemAt, learned],
  );
  previousSizes.current = sizes;
  const getItemKey = useCallback((row: number) => sizes.key(row), [sizes]);
  const estimateSize = useCallback((row: number) => sizes.estimate(row), [sizes]);
  const expandedRef = useRef(expanded);
  expandedRef.current = expanded;
  const measureRow = useCallback(
    (
      element: Element,
      entry: ResizeObserverEntry | undefined,
      instance: Virtualizer<HTMLDivElement, Element>,
    ) => {
      const height = measuredHeight(element, entry, instance);
      const box = entry?.borderBoxSize?.[0];
      const row = instance.indexFromElement(element);
      // an expanded row is the exception, not its shape's rule
      if (box && !expandedRef.current.has(sizes.key(row))) {
        sizes.learn(row, height, Math.round(box.inlineSize));
      }
      return height;
    },
    [sizes],
  );
  // We do not use the React Compiler, so the virtualizer's unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    measureElement: measureRow,
    overscan: 6,
    // happy-dom and the first frame have no layout yet: render a screenful anyway
    initialRect: { width: 800, height: 800 },
  });

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
    if (isFollowing && isLive && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [isFollowing, isLive, count, lastItem, virtualizer]);

  // Jumps (duplicate links, stuck markers, context messages) scroll their target to the middle.
  useEffect(() => {
    if (!jump) return;
    const row = rowOfId(jump.itemId);
    if (row >= 0) virtualizer.scrollToIndex(row, { align: 'center' });
    // only a new jump (nonce) scrolls; later renders must not pull the list back
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump?.nonce]);

  useTimelineKeys({ store, count, itemAt, rowOfId, virtualizer, items });
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

  const virtualRows = virtualizer.getVirtualItems();
  return (
    <div className="timeline-frame">
      {/* the list is absolutely placed in its box: a change of its height (rows measured
          while scrolling) lays out the list alone, not the page around it */}
      <div className="timeline-box">
        <div
          ref={scrollRef}
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
          <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
            {/* the rows' containing block keeps its size when the list's height changes,
              so a new total height does not lay out every row again */}
            <div className="timeline-rows">
              {virtualRows.map((vr) => {
                const item = itemAt(vr.index);
                if (!item) return null;
                return (
                  <div
                    key={vr.key}
                    data-index={vr.index}
                    ref={virtualizer.measureElement}
                    className={item.planStepId !== undefined ? 'vrow is-nested' : 'vrow'}
                    style={{ transform: `translateY(${vr.start}px)` }}
                  >
                    <TimelineRow
                      item={item}
                      isSelected={item.id === selectedItemId}
                      isExpanded={expanded.has(item.id)}
                      isCollapsed={
                        (item.kind === 'step' ||
                          (item.kind === 'marker' && item.planStep !== undefined)) &&
                        collapsed.has(item.id)
                      }
                      actions={actions}
                    />
                  </div>
                );
              })}
            </div>
          </div>
          <PendingCalls runId={runId} isLive={isLive} />
        </div>
      </div>
      <Minimap count={count} itemAt={itemAt} onJump={actions.jumpTo} />
    </div>
  );
}
