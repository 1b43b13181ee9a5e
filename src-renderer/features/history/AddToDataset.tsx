/**
 * "Add to dataset" (issue 31), from the run view (one run) and from a selection in the
 * history (several): each run becomes an item with its task and its starting workspace
 * (copied beside the dataset), and with "its answer as expected" its final answer. A new
 * name makes a new dataset. The result names the items added and opens the editor.
 */
import { useEffect, useState } from 'react';
import type { DatasetListEntry } from '@shared/domain/experiments';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';

export function AddToDataset({
  runIds,
  testId,
  onDone,
}: {
  runIds: string[];
  /** the opening button's test id (run header or history selection) */
  testId: string;
  onDone?: () => void;
}) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const [isOpen, setOpen] = useState(false);
  const [datasets, setDatasets] = useState<DatasetListEntry[]>([]);
  const [name, setName] = useState('');
  const [withAnswer, setWithAnswer] = useState(false);
  const [result, setResult] = useState<{ name: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!isOpen) return;
    let isLive = true;
    bridge.experiments.listDatasets({}).then(
      (list) => {
        if (!isLive) return;
        setDatasets(list);
        setName((n) => n || list[0]?.name || 'my-dataset');
      },
      () => undefined,
    );
    return () => {
      isLive = false;
    };
  }, [bridge, isOpen]);
  const add = async () => {
    setError(null);
    try {
      const added = await bridge.experiments.addRunsToDataset({
        name: name.trim(),
        runIds,
        withAnswer,
      });
      setResult({
        name: added.dataset.name,
        text: `Added ${added.added.join(', ')} to ${added.dataset.name} (now ${added.dataset.items.length} items, ${added.dataset.version})`,
      });
      onDone?.();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const count = runIds.length;
  if (!isOpen)
    return (
      <button
        type="button"
        className="secondary"
        data-testid={testId}
        disabled={count === 0}
        title="Make dataset items of these runs: their tasks and starting workspaces (and optionally their final answers as the expected ones)"
        onClick={() => {
          setResult(null);
          setOpen(true);
        }}
      >
        Add {count > 1 ? `${count} runs ` : ''}to dataset…
      </button>
    );
  return (
    <span className="add-to-dataset" role="group" aria-label="Add to dataset">
      <input
        aria-label="Dataset name (a new name makes a new dataset)"
        data-testid={TEST_IDS.addToDatasetName}
        list="add-to-dataset-names"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <datalist id="add-to-dataset-names">
        {datasets.map((d) => (
          <option key={d.name} value={d.name} />
        ))}
      </datalist>
      <label title="Each run's final answer becomes the item's expected answer">
        <input
          type="checkbox"
          data-testid={TEST_IDS.addToDatasetAnswer}
          checked={withAnswer}
          onChange={(e) => setWithAnswer(e.target.checked)}
        />{' '}
        its answer as expected
      </label>
      <button
        type="button"
        data-testid={TEST_IDS.addToDatasetConfirm}
        disabled={name.trim() === '' || count === 0}
        onClick={() => void add()}
      >
        Add {count} run{count === 1 ? '' : 's'}
      </button>
      <button type="button" className="link" onClick={() => setOpen(false)}>
        close
      </button>
      {result && (
        <span className="muted" data-testid={TEST_IDS.addToDatasetResult}>
          {result.text}{' '}
          <button
            type="button"
            className="link"
            onClick={() => store.getState().showExperiments({ kind: 'dataset', name: result.name })}
          >
            open
          </button>
        </span>
      )}
      {error && (
        <span className="error" role="alert" data-testid={TEST_IDS.addToDatasetError}>
          {error}
        </span>
      )}
    </span>
  );
}
