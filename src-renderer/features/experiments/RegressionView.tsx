/**
 * A dataset's regression view (issue 31): its experiments over time, one chart per
 * scorer, the changed versions marked, and under the charts the experiments they number
 * (each opens its report) with what changed at each point.
 */
import { useEffect, useState } from 'react';
import type { ExperimentTrendView } from '@shared/domain/experiments';
import { changesAt } from '@shared/experiments/experiment-trend';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { RegressionChart } from './RegressionChart';

export function RegressionView({ datasetPath }: { datasetPath: string }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const [trend, setTrend] = useState<ExperimentTrendView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let isLive = true;
    bridge.experiments.getExperimentTrend({ datasetPath }).then(
      (t) => isLive && setTrend(t),
      (e: unknown) => isLive && setError((e as Error).message),
    );
    return () => {
      isLive = false;
    };
  }, [bridge, datasetPath]);
  const open = (experimentId: string) =>
    store.getState().showExperiments({ kind: 'report', experimentId });
  const changes = trend
    ? trend.scorers.flatMap((s) =>
        s.lines.flatMap((l) =>
          l.points.flatMap((p, i) => {
            const what = changesAt(l.points, i);
            return what.length > 0
              ? [
                  `${l.variant} at #${trend.experiments.findIndex((e) => e.experimentId === p.experimentId) + 1}: ${what.join('; ')}`,
                ]
              : [];
          }),
        ),
      )
    : [];
  return (
    <section className="regression-view" data-testid={TEST_IDS.regressionView}>
      <div className="batch-header">
        <button
          type="button"
          className="link"
          onClick={() => store.getState().showExperiments({ kind: 'list' })}
        >
          ← experiments
        </button>
        <h2>Regression: {datasetPath}</h2>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {trend && trend.experiments.length === 0 && (
        <p className="muted">No experiment has run this dataset yet.</p>
      )}
      {trend?.scorers.map((chart) => (
        <RegressionChart key={chart.scorer} trend={trend} chart={chart} onOpen={open} />
      ))}
      {changes.length > 0 && (
        <>
          <h3>Changed versions (ringed points)</h3>
          <ul>
            {[...new Set(changes)].map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </>
      )}
      {trend && trend.experiments.length > 0 && (
        <ol className="regression-experiments">
          {trend.experiments.map((e) => (
            <li key={e.experimentId}>
              <button type="button" className="link" onClick={() => open(e.experimentId)}>
                {e.name}
              </button>{' '}
              <span className="muted">
                {new Date(e.createdAt).toLocaleString()} · dataset {e.datasetVersion}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
