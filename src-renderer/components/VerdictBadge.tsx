import type { RunSummary } from '@shared/ipc';
import { runVerdict } from '@shared/run-outcome';

/**
 * A run's one badge (docs/run-outcome.md): its state and outcome together, coloured by
 * meaning: green only when the run finished and no tool call failed.
 */
export function VerdictBadge({
  summary,
  testId,
  variant = 'badge',
}: {
  summary: RunSummary;
  testId?: string;
  /** `dot`: a coloured dot and the label, for dense lists */
  variant?: 'badge' | 'dot';
}) {
  const verdict = runVerdict(summary);
  const label =
    verdict.kind === 'running'
      ? summary.state
      : verdict.kind === 'paused'
        ? 'PAUSED'
        : verdict.label;
  if (variant === 'dot') {
    return (
      <span
        className={`verdict verdict-${verdict.tone}`}
        data-verdict={verdict.kind}
        data-testid={testId}
      >
        <span className="dot" aria-hidden="true" /> {label}
      </span>
    );
  }
  return (
    <span
      className={`badge verdict-badge verdict-${verdict.tone}`}
      data-testid={testId}
      data-verdict={verdict.kind}
      data-tone={verdict.tone}
      data-state={summary.state}
    >
      {label}
    </span>
  );
}
