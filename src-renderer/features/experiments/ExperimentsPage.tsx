/**
 * The Experiments page (issue 31): the experiments and datasets with the form to run one;
 * one experiment's report; a dataset's editor; a dataset's regression chart.
 */
import { useEffect, useState } from 'react';
import type { DatasetListEntry, ExperimentSummary } from '@shared/domain/experiments';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { progressNote } from './report-format';
import { DatasetEditor } from './DatasetEditor';
import { ExperimentReportView } from './ExperimentReportView';
import { NewExperimentForm } from './NewExperimentForm';
import { RegressionView } from './RegressionView';
import { useExperiment } from './use-experiment';

export function ExperimentsPage() {
  const page = useWorkbench((s) => s.experimentsPage);
  return (
    <div
      className="batch-page experiments-page"
      data-testid={TEST_IDS.experimentsView}
      data-page={page.kind}
    >
      {page.kind === 'report' ? (
        <OneExperiment experimentId={page.experimentId} />
      ) : page.kind === 'dataset' ? (
        <DatasetEditor name={page.name} />
      ) : page.kind === 'trend' ? (
        <RegressionView datasetPath={page.datasetPath} />
      ) : (
        <ExperimentsHome />
      )}
    </div>
  );
}

function OneExperiment({ experimentId }: { experimentId: string }) {
  const bridge = useBridge();
  const state = useExperiment(bridge.experiments, experimentId);
  if (state.status === 'loading') return <p className="muted">Loading the report…</p>;
  if (state.status === 'error')
    return (
      <p className="error" role="alert">
        {state.error}
      </p>
    );
  return <ExperimentReportView view={state.view} />;
}

function ExperimentsHome() {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const [experiments, setExperiments] = useState<ExperimentSummary[]>([]);
  const [datasets, setDatasets] = useState<DatasetListEntry[]>([]);
  const [newName, setNewName] = useState('');
  useEffect(() => {
    let isLive = true;
    const load = () => {
      void bridge.experiments.listExperiments({}).then(
        (list) => isLive && setExperiments(list),
        () => undefined,
      );
      void bridge.experiments.listDatasets({}).then(
        (list) => isLive && setDatasets(list),
        () => undefined,
      );
    };
    load();
    const stop = bridge.experiments.onBatchProgress(load);
    return () => {
      isLive = false;
      stop();
    };
  }, [bridge]);
  const show = store.getState().showExperiments;
  return (
    <>
      <h2>Experiments</h2>
      <p className="muted">
        A dataset run on several variants, each item several times, every run scored; the report
        says per variant how well, and whether a difference is more than noise
        (docs/experiments.md).
      </p>
      <NewExperimentForm datasets={datasets} />
      <h3>Datasets</h3>
      <ul className="batch-list">
        {datasets.map((d) => (
          <li key={d.name}>
            <button
              type="button"
              className="link"
              data-testid={TEST_IDS.datasetListItem}
              data-dataset={d.name}
              data-version={d.version ?? ''}
              onClick={() => show({ kind: 'dataset', name: d.name })}
            >
              {d.name}
            </button>{' '}
            <span className="muted">
              {d.version
                ? `${d.items} items · ${d.version}`
                : `does not load: ${d.problems?.map((p) => `line ${p.line}: ${p.message}`).join('; ')}`}
            </span>{' '}
            <button
              type="button"
              className="link"
              onClick={() => show({ kind: 'trend', datasetPath: d.path })}
            >
              regression
            </button>
          </li>
        ))}
      </ul>
      <div className="batch-form-row">
        <input
          aria-label="New dataset name"
          placeholder="new dataset name"
          data-testid={TEST_IDS.datasetNewName}
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
        />
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.datasetNewOpen}
          disabled={newName.trim() === ''}
          onClick={() => show({ kind: 'dataset', name: newName.trim() })}
        >
          New dataset
        </button>
        <span className="muted">or pick runs in the history and “Add to dataset”</span>
      </div>
      <h3>Experiments run</h3>
      {experiments.length === 0 && <p className="muted">None yet.</p>}
      <ul className="batch-list">
        {experiments.map((e) => (
          <li key={e.experimentId}>
            <button
              type="button"
              className="link"
              data-testid={TEST_IDS.experimentListItem}
              data-experiment-id={e.experimentId}
              onClick={() => show({ kind: 'report', experimentId: e.experimentId })}
            >
              {e.name}
            </button>{' '}
            <span className="muted">
              {e.variants.map((v) => v.name).join(' vs ')} · {e.datasetVersion} ·{' '}
              {new Date(e.createdAt).toLocaleString()}
              {e.progress
                ? ` · ${e.progress.done} of ${e.progress.total} runs done${progressNote(e.progress)}`
                : ''}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
