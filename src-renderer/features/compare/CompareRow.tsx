/**
 * One aligned row of the compare view: which steps of A and B it pairs, whether they
 * differ, the deltas of tokens and times, and (open) the fields side by side. Rows
 * that are the same stay closed: one line each.
 */
import { memo, useMemo } from 'react';
import { rowLabel } from '@shared/compare/diff-runs';
import { stepFieldDiffs } from '@shared/compare/step-diff';
import type { AlignedRow, RunDiffView, StepDigest } from '@shared/compare/types';
import { clip, formatCount, formatDuration } from '../../lib/format';
import { TEST_IDS } from '../../test-ids';
import { FieldDiffs } from './FieldDiffs';

const STATUS_TEXT: Record<AlignedRow['status'], string> = {
  same: 'same',
  changed: 'changed',
  'only-a': 'only in A',
  'only-b': 'only in B',
  shared: 'shared with the parent',
};

function signed(n: number, format: (v: number) => string): string {
  if (n === 0) return '±0';
  return `${n > 0 ? '+' : '−'}${format(Math.abs(n))}`;
}

/** Tokens, model time and step time of B against A, for a paired row. */
function Deltas({ a, b }: { a: StepDigest; b: StepDigest }) {
  const tokens = b.tokens.prompt + b.tokens.completion - (a.tokens.prompt + a.tokens.completion);
  const model = b.latencyMs - a.latencyMs;
  const step = a.durationMs !== null && b.durationMs !== null ? b.durationMs - a.durationMs : null;
  return (
    <span className="cmp-deltas muted" title="B − A">
      <span>tokens {signed(tokens, formatCount)}</span>
      <span>model {signed(model, formatDuration)}</span>
      {step !== null && <span>step {signed(step, formatDuration)}</span>}
    </span>
  );
}

/** The closed row's one-line account of a step ('…' while its page is on its way). */
function gist(step: StepDigest | undefined, isThere: boolean): string {
  if (!isThere) return '—';
  if (!step) return '…';
  if (step.kind === 'end') return step.outcome ?? '';
  const tools = step.calls.map((c) => c.name).join(', ');
  const text = step.reply || step.messages.at(-1)?.text || '';
  return clip([tools, text.replace(/\s+/g, ' ')].filter(Boolean).join(' · '), 160);
}

export const CompareRow = memo(function CompareRow(props: {
  diff: RunDiffView;
  index: number;
  /** the steps' contents, once their pages are here (step-pages.ts) */
  a: StepDigest | undefined;
  b: StepDigest | undefined;
  isCurrent: boolean;
  isOpen: boolean;
  onSelect(index: number): void;
}) {
  const { diff, index, a, b, isCurrent, isOpen, onSelect } = props;
  const row = diff.rows[index]!;
  const refA = row.a !== null ? diff.stepsA[row.a] : undefined;
  const refB = row.b !== null ? diff.stepsB[row.b] : undefined;
  const isLoaded = (row.a === null || a !== undefined) && (row.b === null || b !== undefined);
  // fields only for rows that are open (and so in view); their text diffs in a worker
  const fields = useMemo(
    () => (isOpen && isLoaded ? stepFieldDiffs(a, b) : []),
    [isOpen, isLoaded, a, b],
  );
  const isFirst = diff.firstDifference === index;
  return (
    <div
      className={`cmp-row status-${row.status}${isCurrent ? ' is-current' : ''}`}
      data-testid={TEST_IDS.compareRow}
      data-row={index}
      data-status={row.status}
      data-step-a={refA?.step}
      data-step-b={refB?.step}
      data-loaded={isLoaded}
      data-first-divergence={isFirst || undefined}
      aria-current={isCurrent ? 'true' : undefined}
    >
      <button type="button" className="cmp-row-head" onClick={() => onSelect(index)}>
        <span className="cmp-caret" aria-hidden="true">
          {isOpen ? '▾' : '▸'}
        </span>
        <span className="cmp-label">{rowLabel(diff, row)}</span>
        <span className={`badge cmp-status status-${row.status}`}>{STATUS_TEXT[row.status]}</span>
        {isFirst && <span className="badge cmp-first">first divergence</span>}
        {row.fields && <span className="muted cmp-which">{row.fields.join(', ')}</span>}
        <span className="spacer" />
        {a && b && a.kind !== 'start' && a.kind !== 'end' && <Deltas a={a} b={b} />}
      </button>
      {isOpen && isLoaded ? (
        <FieldDiffs fields={fields} />
      ) : (
        <div className="cmp-gists">
          <div className="cmp-cell side-a muted">{gist(a, row.a !== null)}</div>
          <div className="cmp-cell side-b muted">
            {row.status === 'shared' ? '(inherited)' : gist(b, row.b !== null)}
          </div>
        </div>
      )}
    </div>
  );
});
