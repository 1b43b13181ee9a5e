/**
 * The aligned rows of two runs: a virtualized list like the timeline (only the rows in
 * view exist in the DOM), so two 10,000-step runs scroll like two short ones; long
 * stretches of identical rows are folded into one line (fold-rows.ts). It opens
 * on the first divergence, scrolled to the middle and marked current; n / p (or ] / [)
 * go to the next / previous difference, j / k move row by row, Enter opens or closes
 * the current row.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { RunDiffView } from '@shared/compare/types';
import { TEST_IDS } from '../../test-ids';
import type { StepPages } from './step-pages';
import { CompareRow } from './CompareRow';
import { isOpenByDefault, nextDifference } from './compare-nav';
import { foldOf, foldRows } from './fold-rows';
import { useCompareKeys } from './use-compare-keys';

/** Heights before a row is measured: closed rows are one line per side. */
const CLOSED_HEIGHT = 58;
const OPEN_HEIGHT = 220;
const FOLD_HEIGHT = 30;

/** Row heights from the ResizeObserver's entries (no forced layout per new row), as the timeline. */
function measureRow(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return (
    instance.itemSizeCache.get(instance.options.getItemKey(index)) ??
    instance.options.estimateSize(index)
  );
}

export interface CompareNavigation {
  current: number;
  goTo(index: number): void;
  step(direction: 1 | -1, toDifference: boolean): void;
}

export function CompareList(props: {
  diff: RunDiffView;
  /** the steps' contents, a page at a time for the rows in view */
  pages: StepPages;
  onNavigation(nav: CompareNavigation): void;
}) {
  const { diff, pages, onNavigation } = props;
  const [, pageArrived] = useReducer((n: number) => n + 1, 0);
  useEffect(() => pages.subscribe(pageArrived), [pages]);
  const rows = diff.rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(diff.firstDifference ?? 0);
  /** rows opened or closed against their default */
  const [toggled, setToggled] = useState<ReadonlySet<number>>(() => new Set());
  const isOpen = useCallback(
    (index: number) => isOpenByDefault(rows[index]!) !== toggled.has(index),
    [rows, toggled],
  );

  /** first rows of the folds the user opened */
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(() => new Set());
  const display = useMemo(() => foldRows(rows, unfolded), [rows, unfolded]);
  const { items, positionOfRow } = display;
  const unfold = useCallback(
    (from: number) => setUnfolded((previous) => new Set(previous).add(from)),
    [],
  );

  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    getItemKey: (position) => {
      const item = items[position]!;
      return item.kind === 'row' ? item.row : `fold-${item.from}`;
    },
    estimateSize: (position) => {
      const item = items[position]!;
      if (item.kind === 'fold') return FOLD_HEIGHT;
      return isOpen(item.row) ? OPEN_HEIGHT : CLOSED_HEIGHT;
    },
    measureElement: measureRow,
    overscan: 4,
    initialRect: { width: 1000, height: 800 },
  });

  /** a row to scroll to once the fold that hid it has opened */
  const pendingScroll = useRef<number | null>(null);
  useEffect(() => {
    const row = pendingScroll.current;
    if (row === null || positionOfRow[row] === -1) return;
    pendingScroll.current = null;
    virtualizer.scrollToIndex(positionOfRow[row]!, { align: 'center' });
  }, [positionOfRow, virtualizer]);

  const goTo = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(rows.length - 1, index));
      setCurrent(target);
      const fold = foldOf(display, target);
      if (fold) {
        pendingScroll.current = target;
        unfold(fold.from);
      } else {
        virtualizer.scrollToIndex(positionOfRow[target]!, { align: 'center' });
      }
    },
    [rows.length, display, positionOfRow, unfold, virtualizer],
  );
  const step = useCallback(
    (direction: 1 | -1, toDifference: boolean) =>
      goTo(toDifference ? nextDifference(rows, current, direction) : current + direction),
    [goTo, rows, current],
  );
  const toggle = useCallback(
    (index: number) =>
      setToggled((previous) => {
        const next = new Set(previous);
        if (next.has(index)) next.delete(index);
        else next.add(index);
        return next;
      }),
    [],
  );
  const onSelect = useCallback(
    (index: number) => {
      setCurrent(index);
      toggle(index);
    },
    [toggle],
  );

  // Land on the first divergence when the comparison opens (a difference is never folded).
  useEffect(() => {
    if (diff.firstDifference !== null)
      virtualizer.scrollToIndex(positionOfRow[diff.firstDifference]!, { align: 'center' });
    // only when a new comparison arrives
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [diff]);

  const navigation = useMemo(() => ({ current, goTo, step }), [current, goTo, step]);
  useEffect(() => onNavigation(navigation), [navigation, onNavigation]);
  useCompareKeys({ step, toggleCurrent: () => toggle(current) });

  const failure = pages.failure(diff.a.runId) ?? pages.failure(diff.b.runId);
  return (
    <>
      {failure && (
        <div className="error-note" role="alert">
          Could not read the steps: {failure}
        </div>
      )}
      <div
        ref={scrollRef}
        className="cmp-list"
        data-testid={TEST_IDS.compareList}
        data-count={rows.length}
        role="list"
        aria-label="Aligned steps"
        tabIndex={0}
      >
        <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((vr) => {
            const item = items[vr.index]!;
            const row = item.kind === 'row' ? rows[item.row]! : undefined;
            return (
              <div
                key={vr.key}
                data-index={vr.index}
                ref={virtualizer.measureElement}
                className="vrow"
                role="listitem"
                style={{ transform: `translateY(${vr.start}px)` }}
              >
                {item.kind === 'fold' ? (
                  <button
                    type="button"
                    className="cmp-fold"
                    data-testid={TEST_IDS.compareFold}
                    data-count={item.to - item.from + 1}
                    onClick={() => unfold(item.from)}
                  >
                    ⋯ {item.to - item.from + 1} identical steps (show)
                  </button>
                ) : (
                  <CompareRow
                    diff={diff}
                    index={item.row}
                    a={row && row.a !== null ? pages.get(diff.a.runId, row.a) : undefined}
                    b={row && row.b !== null ? pages.get(diff.b.runId, row.b) : undefined}
                    isCurrent={item.row === current}
                    isOpen={isOpen(item.row)}
                    onSelect={onSelect}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
