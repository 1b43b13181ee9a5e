/**
 * Where a fork, a resumed run or a continuation comes from: the parent and the step, a
 * link to open it, and what the timeline shows above the branch: the parent's context,
 * restored once as this run's first messages; this run's own steps start at the next
 * step (marked in the timeline). A continuation also says it works in the parent's
 * workspace, and that the follow-up is its task.
 */
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

export function ForkOrigin({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const origin = summary?.forkOf ?? summary?.resumeOf ?? summary?.continueOf;
  if (!summary || !origin) return null;
  const kind = summary.forkOf ? 'fork' : summary.resumeOf ? 'resume' : 'continue';
  const link = (
    <button
      type="button"
      className="link mono"
      data-testid={TEST_IDS.originLink}
      onClick={() => store.getState().selectRun(origin.runId)}
    >
      {origin.runId}
    </button>
  );
  return (
    <div
      className="info-note"
      role="note"
      data-testid={TEST_IDS.forkOrigin}
      data-kind={kind}
      data-step={origin.step}
    >
      {kind === 'continue' ? (
        <>
          Continues run {link} after its step {origin.step}, with your message as a new user
          message: the messages before step {origin.step + 1} are that run’s whole conversation, and
          this run works in the same session and workspace.
        </>
      ) : (
        <>
          {kind === 'fork' ? 'Forked' : 'Resumed'} from run {link} at step {origin.step}. The
          messages before step {origin.step + 1} are that run’s context
          {kind === 'fork' ? ', restored with its sandbox files' : ''}; this run’s own steps start
          at step {origin.step + 1}.
        </>
      )}
    </div>
  );
}

/**
 * Where a re-run ("Run again") comes from: the run it repeats (a link) and which settings
 * it took, the ones that run recorded or the ones config.toml had when it started.
 */
export function RerunOrigin({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const of = summary?.rerunOf;
  const original = useWorkbench((s) => (of ? s.runs[of]?.summary : undefined));
  if (!summary || !of) return null;
  return (
    <div
      className="info-note"
      role="note"
      data-testid={TEST_IDS.rerunOrigin}
      data-rerun-of={of}
      data-settings={summary.rerunSettings ?? ''}
    >
      Re-run of run{' '}
      <button type="button" className="link mono" onClick={() => store.getState().selectRun(of)}>
        {of}
      </button>
      {original ? ` (${original.title ?? original.task})` : ''}
      {summary.rerunSettings === 'recorded'
        ? ', with the settings that run recorded (its model profile and agent settings).'
        : summary.rerunSettings === 'current'
          ? ', with the settings config.toml had when this run started (not the ones that run recorded).'
          : ', from step 0.'}
    </div>
  );
}
