import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { CompareWithParent } from '../compare/CompareWithParent';
import { HumanAnswerBox } from '../human/HumanAnswerBox';
import { PlanView } from '../plan/PlanView';
import { Timeline } from '../timeline/Timeline';
import { TimelineToolbar } from '../timeline/TimelineToolbar';
import { RunWaterfall } from '../timeline/RunWaterfall';
import { RunHeader } from './RunHeader';
import { SandboxBanner } from './SandboxBanner';
import { ForkOrigin, RerunOrigin } from './ForkOrigin';
import { ContinueRun } from './ContinueRun';
import { DebuggerBar } from '../debugger/DebuggerBar';
import { McpLogPanel } from './McpLogPanel';
import { PromptOrigin } from './PromptOrigin';
import { FilesPanel } from '../files/FilesPanel';
import { TerminalPanel } from '../terminal/TerminalPanel';

/** The selected run: header, open question, plan, filters and the timeline. */
export function RunView() {
  const bridge = useBridge();
  const runId = useWorkbench((s) => s.selectedRunId);
  const load = useWorkbench((s) => (s.selectedRunId ? s.runs[s.selectedRunId]?.load : undefined));
  const hasItems = useWorkbench((s) =>
    s.selectedRunId ? (s.runs[s.selectedRunId]?.timeline.items.length ?? 0) > 0 : false,
  );
  if (!runId) {
    return (
      <section className="run-view empty-state" data-testid={TEST_IDS.runEmpty}>
        <h2>No run selected</h2>
        <p>Pick a run from the history on the left, or start a new one with “New run”.</p>
      </section>
    );
  }
  return (
    <section className="run-view" aria-label="Run">
      <RunHeader runId={runId} />
      <DebuggerBar runId={runId} />
      {load?.status === 'error' && (
        <div className="error-note" role="alert">
          Could not load this run: {load.error}{' '}
          <button type="button" className="link" onClick={() => void bridge.loadRun(runId)}>
            Try again
          </button>
        </div>
      )}
      {load?.warnings && load.warnings.length > 0 && (
        <div className="warn-note" role="status">
          {/* damaged lines, an incomplete history, snapshots evicted by the budget */}
          About this run’s history: {load.warnings.join('; ')}
        </div>
      )}
      <SandboxBanner runId={runId} />
      <ForkOrigin runId={runId} />
      <RerunOrigin runId={runId} />
      <PromptOrigin runId={runId} />
      <CompareWithParent runId={runId} />
      <HumanAnswerBox runId={runId} />
      <PlanView runId={runId} />
      <McpLogPanel runId={runId} />
      <FilesPanel runId={runId} />
      <TerminalPanel runId={runId} />
      <TimelineToolbar runId={runId} />
      <RunWaterfall runId={runId} />
      {hasItems ? (
        <Timeline runId={runId} />
      ) : (
        <div className="timeline-placeholder muted">
          {load?.status === 'loading'
            ? 'Loading the run’s events…'
            : 'Waiting for the first events…'}
        </div>
      )}
      <ContinueRun key={runId} runId={runId} />
    </section>
  );
}
