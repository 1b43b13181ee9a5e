/** The compare page: two runs side by side, step-aligned, or the table of several. */
import { TEST_IDS } from '../../test-ids';
import { useWorkbench } from '../../store/StoreProvider';
import { CompareTable } from './CompareTable';
import { PairCompare } from './PairCompare';

export function ComparePage() {
  const runIds = useWorkbench((s) => s.compareRunIds);
  const returnTo = useWorkbench((s) => s.compareReturnTo);
  if (runIds.length === 2) return <PairCompare a={runIds[0]!} b={runIds[1]!} returnTo={returnTo} />;
  if (runIds.length > 2) return <CompareTable runIds={runIds} />;
  return (
    <section
      className="compare-view empty-state"
      data-testid={TEST_IDS.compareView}
      data-state="empty"
    >
      <h2>Nothing to compare yet</h2>
      <p>
        Choose “Compare runs…” in the history, tick two or more runs, then “Compare”. Two runs are
        aligned step by step; more are summarised in a table.
      </p>
    </section>
  );
}
