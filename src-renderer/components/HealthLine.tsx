import type { RunSummary } from '@shared/ipc';
import { healthParts, stepsText } from '@shared/run-outcome';
import { formatCount, formatDuration, totalTokens } from '../lib/format';

/**
 * A run's health line: steps, tool errors, stuck detections, duplicates, retries,
 * tokens and wall time. Only what happened is listed; a clean run says so.
 */
export function HealthLine({
  summary,
  now,
  testId,
  isCompact = false,
}: {
  summary: RunSummary;
  /** for a run still going: the time to measure its wall time against */
  now: number;
  testId?: string;
  isCompact?: boolean;
}) {
  const parts = healthParts(summary.health);
  const end =
    summary.finishedAt ?? (summary.outcome || summary.isInterrupted ? summary.startedAt : now);
  return (
    <span className={`health-line${isCompact ? ' is-compact' : ''}`} data-testid={testId}>
      <span className="health-steps">{stepsText(summary)}</span>
      {parts.map((part) => (
        <span
          key={part.key}
          className={`health-part health-${part.key}`}
          data-health={part.key}
          data-count={part.count}
        >
          {part.text}
        </span>
      ))}
      {!isCompact && parts.length === 0 && summary.health && (
        <span className="health-part health-clean">no tool errors, no repeats</span>
      )}
      {!isCompact && (
        <span
          className="health-part"
          title={`${formatCount(summary.usage.prompt)} in, ${formatCount(summary.usage.completion)} out`}
        >
          {formatCount(totalTokens(summary.usage))} tokens
        </span>
      )}
      {!isCompact && <span className="health-part">{formatDuration(end - summary.startedAt)}</span>}
    </span>
  );
}
