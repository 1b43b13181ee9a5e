/**
 * Several runs of (usually) the same task, e.g. one task on three model profiles: one
 * row of figures per run, each measured against the first (the baseline), with a link
 * to that run's step-aligned diff against the baseline.
 */
import { CostText } from '../../components/CostText';
import type { ComparedRun, RunsComparison } from '@shared/compare/types';
import { formatCount, formatDuration, totalTokens } from '../../lib/format';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { useLoaded } from './use-loaded';

function Versus({ run }: { run: ComparedRun }) {
  const v = run.versusBaseline;
  if (!v) return <span className="muted">baseline</span>;
  const settings =
    v.settings.length > 0 ? `settings: ${v.settings.map((s) => s.key).join(', ')}` : '';
  if (v.isEquivalent) {
    return (
      <span>
        <span className="badge outcome-finished">equivalent</span>{' '}
        {settings && <span className="muted">({settings})</span>}
      </span>
    );
  }
  return (
    <span>
      <span className="badge outcome-error">differs</span> at {v.firstDifference?.label ?? '?'}{' '}
      <span className="muted">
        ({v.differences} row{v.differences === 1 ? '' : 's'}
        {settings ? `; ${settings}` : ''})
      </span>
    </span>
  );
}

function Table({ comparison, runIds }: { comparison: RunsComparison; runIds: string[] }) {
  const store = useWorkbenchStore();
  const baseline = runIds[0]!;
  return (
    <>
      {comparison.hasMixedTasks && (
        <div className="warn-note" role="status">
          These runs do not all have the same task: their steps can differ for that reason alone.
        </div>
      )}
      <table className="cmp-table" data-testid={TEST_IDS.compareTable}>
        <thead>
          <tr>
            <th>Run</th>
            <th>Model</th>
            <th>Steps</th>
            <th>Tokens</th>
            <th>Cost (est.)</th>
            <th>Wall time</th>
            <th>Tool errors</th>
            <th>Stuck</th>
            <th>Outcome</th>
            <th>Against the baseline</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {comparison.runs.map((run, i) => {
            const f = run.facts;
            return (
              <tr
                key={f.runId}
                data-testid={TEST_IDS.compareTableRow}
                data-run-id={f.runId}
                data-equivalent={run.versusBaseline?.isEquivalent}
              >
                <td title={f.title !== undefined ? `${f.title}\ntask: ${f.task}` : f.task}>
                  <span className="cmp-side">{String.fromCharCode(65 + i)}</span>{' '}
                  {f.title ?? f.task}
                </td>
                <td className="mono">{f.model}</td>
                <td>{formatCount(f.steps)}</td>
                <td>{formatCount(totalTokens(f.tokens))}</td>
                <td>
                  <CostText usd={f.costUsd} />
                </td>
                <td>{formatDuration(f.wallMs)}</td>
                <td>{formatCount(f.toolErrors)}</td>
                <td>{formatCount(f.stuckDetections)}</td>
                <td>{f.outcome}</td>
                <td className="cmp-versus">
                  <Versus run={run} />
                </td>
                <td className="cmp-table-actions">
                  {i > 0 && (
                    <button
                      type="button"
                      className="secondary"
                      data-testid={TEST_IDS.compareTableDiff}
                      onClick={() => store.getState().openCompare([baseline, f.runId], runIds)}
                    >
                      Diff
                    </button>
                  )}
                  {i > 0 && (
                    <button
                      type="button"
                      className="link"
                      title="Measure the other runs against this one"
                      onClick={() =>
                        store
                          .getState()
                          .openCompare([f.runId, ...runIds.filter((id) => id !== f.runId)])
                      }
                    >
                      make baseline
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

export function CompareTable({ runIds }: { runIds: string[] }) {
  const bridge = useBridge();
  const loaded = useLoaded(() => bridge.compareRuns(runIds), runIds.join('\u0000'));
  return (
    <section
      className="compare-view"
      data-testid={TEST_IDS.compareView}
      data-state={loaded.status}
      aria-label="Compare runs"
    >
      <header className="cmp-header">
        <h2>Compare {runIds.length} runs</h2>
      </header>
      {loaded.status === 'loading' && <p className="muted">Comparing the runs…</p>}
      {loaded.status === 'error' && (
        <div className="error-note" role="alert">
          Could not compare these runs: {loaded.error}{' '}
          <button type="button" className="link" onClick={loaded.reload}>
            Try again
          </button>
        </div>
      )}
      {loaded.status === 'ready' && <Table comparison={loaded.value} runIds={runIds} />}
    </section>
  );
}
