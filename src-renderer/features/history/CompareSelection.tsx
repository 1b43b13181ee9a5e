/**
 * Picking runs to compare in the history: "Compare…" turns on a selection mode in which
 * every run gets a checkbox; "Compare N runs" opens the compare page (two runs: the
 * step-aligned diff, the first picked on the left; more: the summary table).
 */
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { MAX_COMPARED } from '../../store/compare-slice';
import { AddToDataset } from './AddToDataset';

export function CompareBar() {
  const store = useWorkbenchStore();
  const isSelecting = useWorkbench((s) => s.isSelectingForCompare);
  const selection = useWorkbench((s) => s.compareSelection);
  if (!isSelecting) {
    return (
      <button
        type="button"
        className="link compare-toggle"
        data-testid={TEST_IDS.historyCompareToggle}
        title="Pick runs from the history to compare them step by step"
        onClick={() => store.getState().setSelectingForCompare(true)}
      >
        Compare runs…
      </button>
    );
  }
  const count = selection.length;
  return (
    <div className="compare-bar" role="group" aria-label="Compare runs">
      <span className="muted">
        {count < 2 ? `Pick ${2 - count} more run${count === 1 ? '' : 's'}` : `${count} picked`}
        {count >= MAX_COMPARED ? ` (at most ${MAX_COMPARED})` : ''}
      </span>
      <button
        type="button"
        data-testid={TEST_IDS.historyCompareOpen}
        disabled={count < 2}
        onClick={() => store.getState().openCompare(selection)}
      >
        Compare {count >= 2 ? count : ''}
      </button>
      <AddToDataset runIds={selection} testId={TEST_IDS.historyAddToDataset} />
      <button
        type="button"
        className="secondary"
        data-testid={TEST_IDS.historyCompareToggle}
        onClick={() => store.getState().setSelectingForCompare(false)}
      >
        Cancel
      </button>
    </div>
  );
}

/** A history row's checkbox; only there while picking runs. */
export function CompareCheckbox({ runId, task }: { runId: string; task: string }) {
  const store = useWorkbenchStore();
  const order = useWorkbench((s) =>
    s.isSelectingForCompare ? s.compareSelection.indexOf(runId) : null,
  );
  if (order === null) return null;
  return (
    <label className="compare-check" title={order >= 0 ? `Picked as run ${order + 1}` : 'Pick'}>
      <input
        type="checkbox"
        data-testid={TEST_IDS.historyCompareCheck}
        data-run-id={runId}
        aria-label={`Compare: ${task}`}
        checked={order >= 0}
        onChange={() => store.getState().toggleCompareSelection(runId)}
      />
      {order >= 0 && <span className="compare-order">{String.fromCharCode(65 + order)}</span>}
    </label>
  );
}
