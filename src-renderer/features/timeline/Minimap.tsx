/**
 * The density minimap beside the timeline's scrollbar: where the errors, stuck
 * detections, duplicates and edits are among the rows. A mark jumps to its first row.
 */
import { memo, useMemo, useState } from 'react';
import { useThrottled } from '../../lib/use-throttled';
import { TEST_IDS } from '../../test-ids';
import type { MarkKind } from '../../store/timeline/overview';
import { MinimapFeed, type MarkedRowsChange } from '../../store/timeline/minimap-feed';
import type { TimelineItem } from '../../store/timeline/types';

const BUCKETS = 200;
const KIND_ORDER: Record<MarkKind, number> = { edit: 0, duplicate: 1, stuck: 2, error: 3 };
const KIND_TEXT: Record<MarkKind, string> = {
  error: 'error',
  stuck: 'stuck detection',
  duplicate: 'duplicate',
  edit: 'edit',
};

export const Minimap = memo(function Minimap(props: {
  count: number;
  itemAt: (row: number) => TimelineItem | undefined;
  /** what changed since the rows before (no filter on): then only those rows are read */
  change?: MarkedRowsChange | undefined;
  onJump(itemId: number): void;
}) {
  // Every list is fed: one with a change from the last reads its new and replaced rows
  // only (minimap-feed.ts); any other is read whole when drawn. The marks (bucketed from
  // the marked rows) follow at most twice a second.
  const [feed] = useState(() => new MinimapFeed());
  const fed = useMemo(() => {
    feed.update(props.count, props.itemAt, props.change);
    return {};
  }, [feed, props.count, props.itemAt, props.change]);
  const shown = useThrottled(fed, 500);
  const marks = useMemo(
    () => feed.marks(BUCKETS).sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` stands for the feed's state
    [feed, shown],
  );
  return (
    <div
      className="minimap"
      data-testid={TEST_IDS.minimap}
      data-marks={marks.length}
      aria-label="Where the errors, stuck detections, duplicates and edits are"
    >
      {marks.map((mark) => (
        <button
          key={`${mark.kind}:${mark.bucket}`}
          type="button"
          tabIndex={-1}
          className={`minimap-mark mark-${mark.kind}`}
          data-testid={TEST_IDS.minimapMark}
          data-kind={mark.kind}
          data-item-target={mark.itemId}
          style={{ top: `${(mark.bucket / BUCKETS) * 100}%` }}
          title={`${mark.count} ${KIND_TEXT[mark.kind]}${mark.count > 1 ? 's' : ''} here`}
          onClick={() => props.onJump(mark.itemId)}
        />
      ))}
    </div>
  );
});
