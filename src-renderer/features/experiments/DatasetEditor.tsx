/**
 * A dataset's editor (issue 31): its items (task, workspace, expected answer, check,
 * metadata) edited in place, JSONL import and export, and its version (the content hash
 * every experiment records) with the versions saved before. A save is refused with the
 * item and key at fault (the runtime reads it exactly as an experiment will).
 */
import { useEffect, useState } from 'react';
import { AppApiError } from '@shared/ipc';
import type { DatasetView } from '@shared/domain/experiments';
import { TEST_IDS } from '../../test-ids';
import { datasetItemFieldId } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { downloadText } from '../../lib/download';
import {
  exportJsonl,
  importJsonl,
  itemsOf,
  ITEM_FIELDS,
  rowOf,
  type ItemRow,
} from './dataset-rows';

const EMPTY_ROW: ItemRow = {
  id: '',
  task: '',
  workspace: '',
  expected: '',
  check: '',
  metadata: '',
};

export function DatasetEditor({ name }: { name: string }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const [dataset, setDataset] = useState<DatasetView | null>(null);
  const [rows, setRows] = useState<ItemRow[]>([]);
  const [status, setStatus] = useState<'loading' | 'new' | 'ready'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    let isLive = true;
    bridge.experiments.getDataset({ name }).then(
      (view) => {
        if (!isLive) return;
        setDataset(view);
        setRows(view.items.map(rowOf));
        setStatus('ready');
      },
      (e: unknown) => {
        if (!isLive) return;
        if (e instanceof AppApiError && e.code === 'not_found') {
          setRows([{ ...EMPTY_ROW }]);
          setStatus('new');
        } else setError((e as Error).message);
      },
    );
    return () => {
      isLive = false;
    };
  }, [bridge, name]);

  const setRow = (i: number, patch: Partial<ItemRow>) => {
    setSaved(null);
    setRows((all) => all.map((row, n) => (n === i ? { ...row, ...patch } : row)));
  };
  const save = async () => {
    const parsed = itemsOf(rows);
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    try {
      const view = await bridge.experiments.saveDataset({ name, items: parsed.items });
      setDataset(view);
      setRows(view.items.map(rowOf));
      setStatus('ready');
      setSaved(`Saved: version ${view.version}`);
    } catch (e) {
      const issues = e instanceof AppApiError ? e.issues : undefined;
      setError(
        issues && issues.length > 0
          ? issues.map((i) => `item ${i.line ?? '?'}: ${i.message}`).join('\n')
          : (e as Error).message,
      );
    }
  };
  const onImport = async (file: File | undefined) => {
    if (!file) return;
    const result = importJsonl(await file.text());
    if (!result.ok) return setError(`${file.name} was not imported:\n${result.error}`);
    setError(null);
    setSaved(`Imported ${result.rows.length} items from ${file.name}: save to keep them`);
    setRows(result.rows);
  };
  const onExport = () => {
    const parsed = itemsOf(rows);
    if (!parsed.ok) return setError(parsed.error);
    downloadText(`${name}.jsonl`, exportJsonl(parsed.items));
  };

  return (
    <section
      className="dataset-editor"
      data-testid={TEST_IDS.datasetEditor}
      data-version={dataset?.version ?? ''}
      data-items={rows.length}
    >
      <div className="batch-header">
        <button
          type="button"
          className="link"
          onClick={() => store.getState().showExperiments({ kind: 'list' })}
        >
          ← experiments
        </button>
        <h2>Dataset {name}</h2>
        {status === 'new' && <span className="muted">new: saved when you press Save</span>}
      </div>
      {dataset && (
        <p className="muted">
          {dataset.path} · version {dataset.version}
          {dataset.versions.length > 1 &&
            ` · ${dataset.versions.length} versions saved (${dataset.versions
              .slice(0, 5)
              .map((v) => `#${v.n} ${v.version}`)
              .join(', ')})`}
        </p>
      )}
      <p className="muted">
        A task is its text or <code>file:PATH</code>; a workspace is a folder beside the dataset
        (copied into each run&apos;s sandbox); the expected answer is what answer scorers compare
        with; the check is a shell command a <code>shell</code> scorer without a command runs.
      </p>
      {status === 'loading' && !error && <p className="muted">Loading…</p>}
      <table className="experiment-table dataset-items">
        <thead>
          <tr>
            {ITEM_FIELDS.map((f) => (
              <th key={f}>{f}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} data-testid={TEST_IDS.datasetItem}>
              {ITEM_FIELDS.map((f) => (
                <td key={f}>
                  {f === 'task' || f === 'expected' ? (
                    <textarea
                      aria-label={`Item ${i + 1} ${f}`}
                      data-testid={datasetItemFieldId(f)}
                      rows={2}
                      value={row[f]}
                      onChange={(e) => setRow(i, { [f]: e.target.value })}
                    />
                  ) : (
                    <input
                      aria-label={`Item ${i + 1} ${f}`}
                      data-testid={datasetItemFieldId(f)}
                      value={row[f]}
                      placeholder={f === 'id' ? `item-${i + 1}` : ''}
                      onChange={(e) => setRow(i, { [f]: e.target.value })}
                    />
                  )}
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="link"
                  data-testid={TEST_IDS.datasetItemRemove}
                  onClick={() => setRows((all) => all.filter((_, n) => n !== i))}
                >
                  remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="batch-form-row">
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.datasetAddItem}
          onClick={() => setRows((all) => [...all, { ...EMPTY_ROW }])}
        >
          Add an item
        </button>
        <button type="button" data-testid={TEST_IDS.datasetSave} onClick={() => void save()}>
          Save
        </button>
        <label className="secondary file-button">
          Import JSONL…
          <input
            type="file"
            accept=".jsonl,.json,application/x-ndjson"
            data-testid={TEST_IDS.datasetImport}
            onChange={(e) => void onImport(e.target.files?.[0])}
          />
        </label>
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.datasetExport}
          onClick={onExport}
        >
          Export JSONL
        </button>
        {saved && (
          <span className="muted" data-testid={TEST_IDS.datasetSaved}>
            {saved}
          </span>
        )}
      </div>
      {error && (
        <pre className="error" role="alert" data-testid={TEST_IDS.datasetError}>
          {error}
        </pre>
      )}
    </section>
  );
}
