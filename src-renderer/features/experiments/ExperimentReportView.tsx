/**
 * An experiment's report (issue 31, docs/experiments.md "The report"): per variant each
 * scorer's mean with its 95 % interval, pass@k and pass^k, the figures' distributions;
 * the paired comparisons (flipped items open the step-aligned compare of their two runs,
 * which lands on the first divergence), flaky items, and the item x variant grid whose
 * runs open the run view.
 */
import { useState } from 'react';
import type { ExperimentView } from '@shared/domain/experiments';
import type { ExperimentReport, PairedComparison } from '@shared/experiments/experiment-types';
import { formatP } from '@shared/experiments/stats';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { distributionText, intervalText, progressNote, score } from './report-format';

export function ExperimentReportView({ view }: { view: ExperimentView }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const { report, summary } = view;
  const p = summary.progress;
  const state = !p
    ? 'unknown'
    : p.isComplete
      ? 'complete'
      : p.isStopped && p.running === 0
        ? 'stopped'
        : 'running';
  const experimentId = summary.experimentId;
  return (
    <section
      className="experiment-report"
      data-testid={TEST_IDS.experimentReport}
      data-done={report.done}
      data-total={report.total}
      data-state={state}
    >
      <div className="batch-header">
        <button
          type="button"
          className="link"
          onClick={() => store.getState().showExperiments({ kind: 'list' })}
        >
          ← experiments
        </button>
        <h2>{report.name}</h2>
        <span className="muted">{experimentId}</span>
      </div>
      <p className="muted">
        Dataset {report.dataset.path} ({report.dataset.version}, {report.dataset.items.length}{' '}
        items) · {report.repeats} repeat{report.repeats === 1 ? '' : 's'} · {report.done} of{' '}
        {report.total} runs done{p ? progressNote(p) : ''}{' '}
        <button
          type="button"
          className="link"
          data-testid={TEST_IDS.experimentTrendLink}
          onClick={() =>
            store.getState().showExperiments({ kind: 'trend', datasetPath: report.dataset.path })
          }
        >
          regression over time
        </button>
      </p>
      <div className="batch-progress-line">
        {state === 'running' && (
          <button
            type="button"
            data-testid={TEST_IDS.experimentStop}
            onClick={() => void bridge.experiments.stopExperiment({ experimentId })}
          >
            Stop experiment
          </button>
        )}
        {(state === 'stopped' || (state === 'unknown' && report.done < report.total)) && (
          <button
            type="button"
            data-testid={TEST_IDS.experimentResume}
            onClick={() => void bridge.experiments.resumeExperiment({ experimentId })}
          >
            Resume (runs only the items without a finished run)
          </button>
        )}
      </div>
      <VariantTable report={report} />
      <Comparisons report={report} />
      <Flaky report={report} />
      <CellGrid report={report} />
    </section>
  );
}

function VariantTable({ report }: { report: ExperimentReport }) {
  return (
    <>
      <h3>Scores per variant (mean, 95 % interval)</h3>
      <table className="experiment-table">
        <thead>
          <tr>
            <th>Variant</th>
            <th>Runs</th>
            {report.scorers.map((s) => (
              <th key={s}>{s}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.variants.map((v) => (
            <tr key={v.variant.name}>
              <th
                scope="row"
                title={`agent ${v.variant.agent}, profile ${v.variant.profile ?? "the agent's own"}`}
              >
                {v.variant.name}
                <div className="muted">
                  {v.variant.agent}
                  {v.variant.profile ? ` · ${v.variant.profile}` : ''}
                </div>
              </th>
              <td>{v.runs}</td>
              {v.scorers.map((s) => (
                <td
                  key={s.scorer}
                  data-testid={TEST_IDS.experimentScore}
                  data-variant={v.variant.name}
                  data-scorer={s.scorer}
                  data-mean={s.mean}
                  data-low={s.interval?.low ?? ''}
                  data-high={s.interval?.high ?? ''}
                  title={`${s.method === 'wilson' ? 'Wilson interval (pass/fail)' : 'percentile bootstrap (2,000 resamples)'}; ${s.passes} of ${s.n} runs pass`}
                >
                  <strong>{score(s.mean)}</strong>{' '}
                  <span className="muted">{intervalText(s.interval)}</span>
                  <div className="muted" data-testid={TEST_IDS.experimentPassK}>
                    {s.passAtK.map((x) => `pass@${x.k} ${score(x.value)}`).join(' · ')}
                    {s.passHatK.length > 0 ? ' | ' : ''}
                    {s.passHatK.map((x) => `pass^${x.k} ${score(x.value)}`).join(' · ')}
                  </div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Figures per run</h3>
      <table className="experiment-table">
        <tbody>
          {report.variants.map((v) => (
            <tr
              key={v.variant.name}
              data-testid={TEST_IDS.experimentFigures}
              data-variant={v.variant.name}
            >
              <th scope="row">{v.variant.name}</th>
              <td>
                <div>cost: {distributionText(v.costUsd, 'usd')}</div>
                <div>tokens: {distributionText(v.tokens, 'tokens')}</div>
                <div>time: {distributionText(v.durationMs, 'ms')}</div>
                <div>steps: {distributionText(v.steps, 'steps')}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Comparisons({ report }: { report: ExperimentReport }) {
  const store = useWorkbenchStore();
  if (report.variants.length < 2) return null;
  const a = report.variants[0]!.variant.name;
  // comparisons are each later variant against the first, scorer by scorer, in order
  const perVariant = report.scorers.length;
  return (
    <>
      <h3>Paired comparison against {a}</h3>
      <ul className="experiment-comparisons">
        {report.comparisons.map((c: PairedComparison, i) => {
          const b =
            report.variants[1 + Math.floor(i / Math.max(perVariant, 1))]?.variant.name ?? 'B';
          return (
            <li
              key={`${b}-${c.scorer}`}
              data-testid={TEST_IDS.experimentComparison}
              data-scorer={c.scorer}
              data-variant={b}
              data-verdict={c.test.verdict}
              data-p={c.test.p}
            >
              <strong>
                {b} vs {a}, {c.scorer}:
              </strong>{' '}
              {score(c.a)} → {score(c.b)} over {c.items} items; {c.test.better} better,{' '}
              {c.test.worse} worse, {c.test.ties} the same:{' '}
              <span
                className={
                  c.test.verdict === 'noise' ? 'muted' : c.test.verdict === 'worse' ? 'error' : ''
                }
              >
                {c.test.verdict === 'noise'
                  ? `not distinguishable from noise (p = ${formatP(c.test.p)})`
                  : `${b} is significantly ${c.test.verdict} than ${a} (p = ${formatP(c.test.p)})`}
              </span>
              {c.flipped.length > 0 && (
                <div className="experiment-flips">
                  Flipped:{' '}
                  {c.flipped.map((f) => (
                    <button
                      key={f.itemIndex}
                      type="button"
                      className="chip"
                      data-testid={TEST_IDS.experimentFlipped}
                      data-item={f.itemId}
                      data-a-run={f.aRunId ?? ''}
                      data-b-run={f.bRunId ?? ''}
                      disabled={!f.aRunId || !f.bRunId}
                      title={`${f.itemId}: ${score(f.a)} (${a}) → ${score(f.b)} (${b}); open the step-aligned compare of the two runs at their first divergence`}
                      onClick={() =>
                        f.aRunId && f.bRunId && store.getState().openCompare([f.aRunId, f.bRunId])
                      }
                    >
                      {f.itemId} {f.b > f.a ? '↑' : '↓'}
                    </button>
                  ))}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Flaky({ report }: { report: ExperimentReport }) {
  const [shown, setShown] = useState(ITEM_PAGE);
  if (report.flaky.length === 0) return null;
  return (
    <>
      <h3>Flaky items (repeats disagree)</h3>
      <ul>
        {report.flaky.slice(0, shown).map((f) => (
          <li
            key={`${f.itemIndex}-${f.variantIndex}-${f.scorer}`}
            data-testid={TEST_IDS.experimentFlaky}
          >
            {f.itemId}, {report.variants[f.variantIndex]?.variant.name}, {f.scorer}: {f.passes} of{' '}
            {f.runs} pass
          </li>
        ))}
      </ul>
      {report.flaky.length > shown && (
        <button type="button" className="link" onClick={() => setShown(report.flaky.length)}>
          Show all {report.flaky.length} flaky items ({report.flaky.length - shown} more)
        </button>
      )}
    </>
  );
}

/** Items shown at first: a 1,000-run report paints its summary at once (the rest on demand). */
export const ITEM_PAGE = 100;

function CellGrid({ report }: { report: ExperimentReport }) {
  const store = useWorkbenchStore();
  const [shown, setShown] = useState(ITEM_PAGE);
  const rows = report.cells.slice(0, shown);
  return (
    <>
      <h3>Items</h3>
      <table className="experiment-table experiment-cells">
        <thead>
          <tr>
            <th>Item</th>
            {report.variants.map((v) => (
              <th key={v.variant.name}>{v.variant.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, itemIndex) => {
            const item = report.dataset.items[itemIndex];
            return (
              <tr key={item?.id ?? itemIndex}>
                <th scope="row" title={item?.task}>
                  {item?.id}
                  <div className="muted experiment-task">{item?.task}</div>
                </th>
                {row.map((cell) => (
                  <td
                    key={cell.variantIndex}
                    data-testid={TEST_IDS.experimentCell}
                    data-item={item?.id}
                    data-variant={report.variants[cell.variantIndex]?.variant.name}
                  >
                    {cell.runs.map((run) => (
                      <button
                        key={run.runId}
                        type="button"
                        className="chip"
                        data-testid={TEST_IDS.experimentCellRun}
                        data-run-id={run.runId}
                        title={`repeat ${run.repeat + 1}: ${Object.entries(run.scores)
                          .map(([s, v]) => `${s} ${score(v)}`)
                          .join(', ')} (open the run)`}
                        onClick={() => store.getState().selectRun(run.runId)}
                      >
                        {Object.values(run.scores)
                          .map((v) => score(v))
                          .join(' / ')}
                      </button>
                    ))}
                    {cell.runs.length === 0 && <span className="muted">not run yet</span>}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {report.cells.length > shown && (
        <button type="button" className="link" onClick={() => setShown(report.cells.length)}>
          Show all {report.cells.length} items ({report.cells.length - shown} more)
        </button>
      )}
    </>
  );
}
