/**
 * The density minimap beside the timeline's scrollbar: where the errors, stuck
 * detections, duplicates and edits are among the rows. A mark jumps to its first row.
 */
import { memo, useMemo } from 'react';
import { useThrottled } from '../../lib/use-throttled';
import { TEST_IDS } from '../../test-ids';
import { minimapMarks, type MarkKind } from '../../store/timeline/overview';
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
  onJump(itemId: number): void;
}) {
  // a scan of every row: at most twice a second while a long run streams or loads
  const latest = useMemo(
    () => ({ count: props.count, itemAt: props.itemAt }),
    [props.count, props.itemAt],
  );
  const rows = useThrottled(latest, 500);
  const { count, itemAt } = rows;
  const marks = useMemo(
    () =>
      minimapMarks(count, itemAt, BUCKETS).sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]),
    [count, itemAt],
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
