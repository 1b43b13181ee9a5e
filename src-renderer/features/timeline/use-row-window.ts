/**
 * The row window (row-window.ts) as a hook: one controller per timeline, given the rows
 * as the timeline renders; it renders the timeline again when the rows in view change.
 */
import { useLayoutEffect, useReducer, useState } from 'react';
import { flushSync } from 'react-dom';
import type { TimelineItem } from '../../store/timeline/types';
import { RowWindowController, type RowAlign, type RowsChange } from './row-window';

export interface RowWindow {
  /** the rows in the DOM: first..last (last < first when there are none) */
  first: number;
  last: number;
  /** a row's React key (its item's id) */
  key(row: number): number;
  /** the scroll container's ref; returns the detach */
  attach(element: HTMLElement): () => void;
  /** the full-height element's ref */
  holdList(element: HTMLElement | null): void;
  /** each row element's ref (the element carries `data-index`; its transform is set there) */
  measureRow(element: HTMLElement | null): (() => void) | undefined;
  scrollToRow(row: number, align: RowAlign): void;
}

export function useRowWindow(options: {
  count: number;
  itemAt: (row: number) => TimelineItem | undefined;
  /** how these rows differ from the ones given before (row-window.ts) */
  change?: RowsChange;
  overscan: number;
  /** item ids of expanded rows */
  expanded: ReadonlySet<number>;
}): RowWindow {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [controller] = useState(
    () =>
      new RowWindowController(
        options.overscan,
        // in a scroll or resize callback, the rows that came into view are rendered
        // before the frame is painted, not one frame later
        (sync) => (sync ? flushSync(rerender) : rerender()),
      ),
  );
  controller.setRows(options.count, options.itemAt, options.change);
  controller.setExpanded(options.expanded);
  useLayoutEffect(() => {
    controller.writeHeight();
    controller.placeRows();
  });
  const { first, last } = controller.range();
  return {
    first,
    last,
    key: (row) => controller.key(row),
    attach: controller.attach,
    holdList: controller.holdList,
    measureRow: controller.measureRow,
    scrollToRow: controller.scrollToRow,
  };
}
