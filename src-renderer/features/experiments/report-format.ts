/** How the report's numbers read on the page (the CLI's text report says the same). */
import type { Distribution } from '@shared/experiments/experiment-types';
import type { Interval } from '@shared/experiments/stats';
import type { BatchProgress } from '@shared/domain/batch';
import { formatDuration } from '../../lib/format';

export const score = (n: number) => n.toFixed(2);

export function intervalText(interval: Interval | undefined): string {
  return interval ? `[${score(interval.low)}, ${score(interval.high)}]` : '';
}

export function distributionText(
  d: Distribution | null,
  unit: 'usd' | 'tokens' | 'ms' | 'steps',
): string {
  if (!d) return unit === 'usd' ? 'unknown (a model without a price)' : '—';
  const f = (v: number) =>
    unit === 'usd'
      ? `$${v.toFixed(4)}`
      : unit === 'ms'
        ? formatDuration(v)
        : Math.round(v).toLocaleString('en-US');
  return `mean ${f(d.mean)} · min ${f(d.min)} · p50 ${f(d.p50)} · p90 ${f(d.p90)} · max ${f(d.max)}`;
}

/** What is going on besides the runs done: running, queued, stopped. */
export function progressNote(p: BatchProgress): string {
  if (p.isComplete) return '';
  if (p.isStopped && p.running === 0) return ' · stopped';
  return ` · ${p.running} running, ${p.queued} queued${p.isStopped ? ', stopping' : ''}`;
}
