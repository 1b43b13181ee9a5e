import { useEffect, useState } from 'react';
import { AGENT_NAMES } from '@shared/domain/agent';
import type { BatchListEntry } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { batchInputOf, EMPTY_BATCH_FORM, progressText, type BatchFormValues } from './batch-form';
import { ProfileChecks } from '../../components/ProfilePicker';
import { BatchGridView } from './BatchGridView';
import { useBatchGrid } from './use-batch-grid';

/** Batch runs: the form and the list of batches, or one batch's grid. */
export function BatchPage() {
  const batchId = useWorkbench((s) => s.batchId);
  return (
    <div className="batch-page" data-testid={TEST_IDS.batchView} data-batch-id={batchId ?? ''}>
      {batchId ? <OneBatch batchId={batchId} /> : <NewBatch />}
    </div>
  );
}

function OneBatch({ batchId }: { batchId: string }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const state = useBatchGrid(bridge.batch, batchId);
  return (
    <>
      <div className="batch-header">
        <button type="button" className="link" onClick={() => store.getState().showBatch(null)}>
          ← batches
        </button>
        <h2>Batch {batchId}</h2>
      </div>
      {state.status === 'loading' && <p className="muted">Loading…</p>}
      {state.status === 'error' && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
      {state.status === 'ready' && <BatchGridView grid={state.grid} />}
    </>
  );
}

function NewBatch() {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const profileViews = useWorkbench((s) => s.config?.profileViews) ?? [];
  const [values, setValues] = useState<BatchFormValues>(EMPTY_BATCH_FORM);
  const [error, setError] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);
  const [batches, setBatches] = useState<BatchListEntry[]>([]);
  useEffect(() => {
    let isLive = true;
    const load = () =>
      void bridge.batch.list().then(
        (list) => isLive && setBatches(list),
        () => undefined,
      );
    load();
    const stop = bridge.batch.onProgress(load);
    return () => {
      isLive = false;
      stop();
    };
  }, [bridge]);
  const field =
    (key: Exclude<keyof BatchFormValues, 'profiles'>) => (e: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [key]: e.target.value }));

  const start = async () => {
    const parsed = batchInputOf(values);
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    setStarting(true);
    try {
      store.getState().showBatch(await bridge.batch.start(parsed.input));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStarting(false);
    }
  };

  return (
    <>
      <h2>New batch</h2>
      <p className="muted">
        Every task with every profile, each repeat an ordinary run in its own sandbox.
      </p>
      <label className="field">
        <span>Tasks (one a line; or JSON lines with task, workspace, check)</span>
        <textarea
          rows={5}
          data-testid={TEST_IDS.batchTasks}
          value={values.tasks}
          onChange={field('tasks')}
        />
      </label>
      <div className="batch-form-row">
        <label className="field">
          <span>Agent</span>
          <select data-testid={TEST_IDS.batchAgent} value={values.agent} onChange={field('agent')}>
            {AGENT_NAMES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Repeat</span>
          <input
            type="number"
            min={1}
            data-testid={TEST_IDS.batchRepeat}
            value={values.repeat}
            onChange={field('repeat')}
          />
        </label>
        <label className="field">
          <span>At once</span>
          <input
            type="number"
            min={1}
            data-testid={TEST_IDS.batchConcurrency}
            value={values.concurrency}
            onChange={field('concurrency')}
          />
        </label>
      </div>
      <ProfileChecks
        profiles={profileViews}
        chosen={values.profiles}
        onChange={(profiles) => setValues((v) => ({ ...v, profiles }))}
      />
      <label className="field">
        <span>Check command (run in the sandbox after the agent; exit 0 = pass)</span>
        <input data-testid={TEST_IDS.batchCheck} value={values.check} onChange={field('check')} />
      </label>
      {error && (
        <p className="error" role="alert" data-testid={TEST_IDS.batchError}>
          {error}
        </p>
      )}
      <button
        type="button"
        className="primary"
        data-testid={TEST_IDS.batchStart}
        disabled={isStarting}
        onClick={() => void start()}
      >
        Start batch
      </button>
      {batches.length > 0 && (
        <>
          <h3>Batches</h3>
          <ul className="batch-list">
            {batches.map((b) => (
              <li key={b.batchId}>
                <button
                  type="button"
                  className="link"
                  data-testid={TEST_IDS.batchListItem}
                  data-batch-id={b.batchId}
                  onClick={() => store.getState().showBatch(b.batchId)}
                >
                  {b.batchId}
                </button>{' '}
                <span className="muted">
                  {b.agent}: {progressText(b.progress)}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
