/**
 * "Compare with parent" for a fork: shown in a run's view when its `run.started` names
 * the run it was forked from (`forkOf`), and opens the two step-aligned, the shared
 * prefix marked.
 */
import { forkOfEvent } from '@shared/compare/fork';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

export function CompareWithParent({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const first = useWorkbench((s) => s.runs[runId]?.firstEvent);
  const forkOf = first ? forkOfEvent(first) : undefined;
  if (!forkOf) return null;
  return (
    <button
      type="button"
      className="secondary compare-parent"
      data-testid={TEST_IDS.compareWithParent}
      title={`Forked from run ${forkOf.runId} at step ${forkOf.step}`}
      onClick={() => store.getState().openCompare([forkOf.runId, runId])}
    >
      Compare with parent (step {forkOf.step})
    </button>
  );
}
