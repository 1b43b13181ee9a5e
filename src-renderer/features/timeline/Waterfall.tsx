/**
 * The waterfall strip above the timeline: one bar per step (steps are merged into a bar
 * on long runs), its height the step's time, split into the model call, the tool calls
 * and the rest (waits, the loop); a red tick counts its retries. A bar jumps to its step.
 */
import { memo, useMemo } from 'react';
import { useThrottled } from '../../lib/use-throttled';
import { TEST_IDS } from '../../test-ids';
import { formatDuration } from '../../lib/format';
import { stepTimings, waterfallBars } from '../../store/timeline/overview';
import type { TimelineItem } from '../../store/timeline/types';

const MAX_BARS = 240;

export const Waterfall = memo(function Waterfall(props: {
  items: readonly TimelineItem[];
  selectedStepId: number | null;
  onJump(stepId: number): void;
}) {
  // a scan of the whole run: at most twice a second while a long run streams or loads
  const items = useThrottled(props.items, 500);
  const bars = useMemo(() => waterfallBars(stepTimings(items), MAX_BARS), [items]);
  if (bars.length === 0) return null;
  const longest = Math.max(1, ...bars.map((b) => b.modelMs + b.toolMs + b.otherMs));
  const pct = (ms: number) => `${(ms / longest) * 100}%`;
  return (
    <div className="waterfall" data-testid={TEST_IDS.waterfall} data-bars={bars.length} role="list">
      {bars.map((bar) => {
        const steps =
          bar.firstStep === bar.lastStep
            ? `step ${bar.firstStep}`
            : `steps ${bar.firstStep}–${bar.lastStep}`;
        const title =
          `${steps}: model ${formatDuration(bar.modelMs)}, tools ${formatDuration(bar.toolMs)}, ` +
          `other ${formatDuration(bar.otherMs)}${bar.retries > 0 ? `, ${bar.retries} retries` : ''}`;
        return (
          <button
            key={bar.stepId}
            type="button"
            role="listitem"
            tabIndex={-1}
            className={`waterfall-bar${bar.hasError ? ' has-error' : ''}${bar.stepId === props.selectedStepId ? ' is-selected' : ''}`}
            data-testid={TEST_IDS.waterfallBar}
            data-step-id={bar.stepId}
            data-retries={bar.retries}
            title={title}
            aria-label={title}
            onClick={() => props.onJump(bar.stepId)}
          >
            <span className="wf-other" style={{ height: pct(bar.otherMs) }} />
            <span className="wf-tool" style={{ height: pct(bar.toolMs) }} />
            <span className="wf-model" style={{ height: pct(bar.modelMs) }} />
            {bar.retries > 0 && <span className="wf-retry" />}
          </button>
        );
      })}
    </div>
  );
});
