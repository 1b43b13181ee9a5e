/**
 * The waterfall strip above the timeline: one bar per step (steps are merged into a bar
 * on long runs), its height the step's time, split into the model call, the tool calls,
 * waits (queued for the model, retry backoff, paused, queued for a sandbox: each kind
 * named in the title) and the loop's own time; a red tick counts its retries. A bar
 * jumps to its step.
 */
import { memo, useMemo, useState } from 'react';
import { useThrottled } from '../../lib/use-throttled';
import { TEST_IDS } from '../../test-ids';
import { formatDuration } from '../../lib/format';
import type { WaterfallBar } from '../../store/timeline/overview';
import { StepTimingsFeed } from '../../store/timeline/step-timings-feed';
import type { TimelineModel } from '../../store/timeline/types';

const MAX_BARS = 240;

const WAIT_KINDS = [
  ['queuedMs', 'queued for the model'],
  ['backoffMs', 'retry backoff'],
  ['pausedMs', 'paused'],
  ['sandboxMs', 'queued for a sandbox'],
] as const;

/** "waited 3.2 s: 2.0 s queued for the model, 1.2 s retry backoff", or '' without waits. */
function waitText(bar: WaterfallBar): string {
  if (bar.waitMs <= 0) return '';
  const kinds = WAIT_KINDS.filter(([k]) => bar[k] > 0).map(
    ([k, label]) => `${formatDuration(bar[k])} ${label}`,
  );
  return `waited ${formatDuration(bar.waitMs)}: ${kinds.join(', ')}`;
}

function barTitle(bar: WaterfallBar): string {
  const steps =
    bar.firstStep === bar.lastStep
      ? `step ${bar.firstStep}`
      : `steps ${bar.firstStep}–${bar.lastStep}`;
  const waited = waitText(bar);
  return (
    `${steps}: model ${formatDuration(bar.modelMs)}, tools ${formatDuration(bar.toolMs)}` +
    `${waited ? `; ${waited};` : ','} loop ${formatDuration(bar.loopMs)}` +
    `${bar.retries > 0 ? `, ${bar.retries} ${bar.retries === 1 ? 'retry' : 'retries'}` : ''}`
  );
}

export const Waterfall = memo(function Waterfall(props: {
  timeline: TimelineModel;
  selectedStepId: number | null;
  onJump(stepId: number): void;
}) {
  // Every model is fed: one made from the last costs its new and changed items only
  // (step-timings-feed.ts). The bars follow at most twice a second, each draw making only
  // the changed steps' timings and the bars from the first of them on.
  const [feed] = useState(() => new StepTimingsFeed());
  const version = useMemo(() => {
    feed.update(props.timeline);
    return props.timeline.version;
  }, [feed, props.timeline]);
  const shown = useThrottled(version, 500);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` stands for the feed's state
  const bars = useMemo(() => feed.waterfallBars(MAX_BARS), [feed, shown]);
  if (bars.length === 0) return null;
  const longest = Math.max(1, ...bars.map((b) => b.modelMs + b.toolMs + b.waitMs + b.loopMs));
  const pct = (ms: number) => `${(ms / longest) * 100}%`;
  return (
    <div
      className="waterfall"
      data-testid={TEST_IDS.waterfall}
      data-bars={bars.length}
      role="list"
      title="Each step's time: model (blue), tools (green), waits (amber), the loop (grey)"
    >
      {bars.map((bar) => {
        const title = barTitle(bar);
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
            data-wait-ms={Math.round(bar.waitMs)}
            title={title}
            aria-label={title}
            onClick={() => props.onJump(bar.stepId)}
          >
            <span className="wf-loop" style={{ height: pct(bar.loopMs) }} />
            <span className="wf-tool" style={{ height: pct(bar.toolMs) }} />
            {bar.waitMs > 0 && (
              <span
                className="wf-wait"
                data-testid={TEST_IDS.waterfallWait}
                style={{ height: pct(bar.waitMs) }}
              />
            )}
            <span className="wf-model" style={{ height: pct(bar.modelMs) }} />
            {bar.retries > 0 && <span className="wf-retry" />}
          </button>
        );
      })}
    </div>
  );
});
