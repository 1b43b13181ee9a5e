/**
 * Where a fork (or a resumed run) comes from: the parent and the step, a link to open it,
 * and what the timeline shows above the branch: the parent's context, restored once as
 * this run's first messages; this run's own steps start at the next step (marked in the
 * timeline).
 */
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

export function ForkOrigin({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const origin = summary?.forkOf ?? summary?.resumeOf;
  if (!summary || !origin) return null;
  const isFork = summary.forkOf !== undefined;
  return (
    <div
      className="info-note"
      role="note"
      data-testid={TEST_IDS.forkOrigin}
      data-step={origin.step}
    >
      {isFork ? 'Forked' : 'Resumed'} from run{' '}
      <button
        type="button"
        className="link mono"
        onClick={() => store.getState().selectRun(origin.runId)}
      >
        {origin.runId}
      </button>{' '}
      at step {origin.step}. The messages before step {origin.step + 1} are that run’s context
      {isFork ? ', restored with its sandbox files' : ''}; this run’s own steps start at step{' '}
      {origin.step + 1}.
    </div>
  );
}
