/**
 * The comparison's header: each run's figures side by side with B's difference from A
 * (steps, tokens, estimated cost, wall time, tool errors, stuck detections, outcome),
 * and the settings that differ, from what each run recorded when it started. A fork and
 * its parent are measured after the fork step, with the steps they share on a row of
 * their own (src-shared/compare/fork-figures.ts): the fork never ran those steps.
 */
import { sharedStepsLabel, type RunFigures } from '@shared/compare/fork-figures';
import type { RunDiffView } from '@shared/compare/types';
import { formatUsd } from '@shared/pricing';
import { CostText } from '../../components/CostText';
import { formatCount, formatDuration, totalTokens } from '../../lib/format';
import { TEST_IDS } from '../../test-ids';

interface Figure {
  label: string;
  value(f: RunFigures): number | null;
  format(v: number): string;
  /** a higher value is worse (shown red), e.g. tokens, errors */
  isCost: boolean;
}

const FIGURES: Figure[] = [
  { label: 'steps', value: (f) => f.steps, format: formatCount, isCost: false },
  { label: 'tokens', value: (f) => totalTokens(f.tokens), format: formatCount, isCost: true },
  { label: 'cost (est.)', value: (f) => f.costUsd, format: formatUsd, isCost: true },
  { label: 'wall time', value: (f) => f.wallMs, format: formatDuration, isCost: true },
  { label: 'tool errors', value: (f) => f.toolErrors, format: formatCount, isCost: true },
  { label: 'stuck detections', value: (f) => f.stuckDetections, format: formatCount, isCost: true },
];

function Delta({ a, b, figure }: { a: number | null; b: number | null; figure: Figure }) {
  if (a === null || b === null || a === b) return <td className="muted">{a === b ? '±0' : ''}</td>;
  const d = b - a;
  const tone = figure.isCost ? (d > 0 ? 'worse' : 'better') : '';
  return (
    <td className={`cmp-delta ${tone}`}>
      {d > 0 ? '+' : '−'}
      {figure.format(Math.abs(d))}
    </td>
  );
}

/** The steps a fork and its parent share: the parent's figures for them, once. */
function SharedRow({ fork }: { fork: NonNullable<RunDiffView['fork']> }) {
  const { shared } = fork;
  const parts = [
    `${formatCount(shared.steps)} step${shared.steps === 1 ? '' : 's'}`,
    `${formatCount(totalTokens(shared.tokens))} tokens`,
    ...(shared.costUsd !== null && shared.costUsd > 0 ? [formatUsd(shared.costUsd)] : []),
    `${formatCount(shared.toolCalls)} tool call${shared.toolCalls === 1 ? '' : 's'}`,
  ];
  const text = `${parts.join(' · ')}, run by the parent`;
  return (
    <tr data-figure="shared" className="cmp-shared">
      <th scope="row">{`${sharedStepsLabel(fork.step)} (shared)`}</th>
      <td>{fork.parent === 'a' ? text : 'inherited'}</td>
      <td>{fork.parent === 'b' ? text : 'inherited'}</td>
      <td className="muted">not compared</td>
    </tr>
  );
}

const show = (v: string | number | boolean | undefined) => (v === undefined ? '(none)' : String(v));

/** A missing cost is an unknown price (said so, with how to set one), not a dash. */
function shown(figure: Figure, value: number | null) {
  if (value !== null) return figure.format(value);
  return figure.label.startsWith('cost') ? <CostText usd={null} /> : '—';
}

export function CompareSummary({ diff }: { diff: RunDiffView }) {
  const { a, b, fork } = diff;
  const hasNoSettings = a.settings === null || b.settings === null;
  // a fork and its parent: what each did after the fork step (the figures' own runs else)
  const figuresA: RunFigures = fork ? fork.a : a;
  const figuresB: RunFigures = fork ? fork.b : b;
  const role = (side: 'a' | 'b') => (fork ? (fork.parent === side ? ' (parent)' : ' (fork)') : '');
  return (
    <div className="cmp-summary">
      {fork && (
        <p className="cmp-fork-note muted" data-testid={TEST_IDS.compareForkNote}>
          {fork.parent === 'a' ? 'B' : 'A'} is a fork of {fork.parent === 'a' ? 'A' : 'B'} at step{' '}
          {fork.step}: the figures compare what each run did after step {fork.step}.{' '}
          {fork.step === 1 ? 'Step 1 is' : `Steps 1–${fork.step} are`} shared: the parent ran{' '}
          {fork.step === 1 ? 'it' : 'them'}, the fork started from {fork.step === 1 ? 'it' : 'them'}
          .
        </p>
      )}
      <table
        className="cmp-figures"
        data-testid={TEST_IDS.compareSummary}
        data-fork-step={fork?.step}
      >
        <thead>
          <tr>
            <th>{fork ? `after step ${fork.step}` : ''}</th>
            <th>A{role('a')}</th>
            <th>B{role('b')}</th>
            <th>B − A</th>
          </tr>
        </thead>
        <tbody>
          {FIGURES.map((figure) => {
            const va = figure.value(figuresA);
            const vb = figure.value(figuresB);
            return (
              <tr key={figure.label} data-figure={figure.label}>
                <th scope="row">{figure.label}</th>
                <td>{shown(figure, va)}</td>
                <td>{shown(figure, vb)}</td>
                <Delta a={va} b={vb} figure={figure} />
              </tr>
            );
          })}
          <tr data-figure="outcome">
            <th scope="row">outcome</th>
            <td>{a.outcome}</td>
            <td>{b.outcome}</td>
            <td className={a.outcome === b.outcome ? 'muted' : 'cmp-delta worse'}>
              {a.outcome === b.outcome ? 'same' : 'differs'}
            </td>
          </tr>
          {fork && <SharedRow fork={fork} />}
        </tbody>
      </table>
      <div className="cmp-settings" data-testid={TEST_IDS.compareSettings}>
        <h3>Settings that differ</h3>
        {diff.settings.length === 0 ? (
          <p className="muted">None{hasNoSettings ? ' among agent, model and step limit' : ''}.</p>
        ) : (
          <table>
            <tbody>
              {diff.settings.map((s) => (
                <tr key={s.key} data-key={s.key}>
                  <th scope="row" className="mono">
                    {s.key}
                  </th>
                  <td className="mono">{show(s.a)}</td>
                  <td className="mono">{show(s.b)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {hasNoSettings && (
          <p className="muted small">
            A run recorded before settings were kept with runs: only agent, model and step limit can
            be compared.
          </p>
        )}
      </div>
    </div>
  );
}
