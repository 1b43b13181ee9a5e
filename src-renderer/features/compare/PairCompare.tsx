/**
 * Two runs compared step by step: who they are, their figures and the settings that
 * differ, whether they are equivalent (or where they first diverge), and the aligned
 * rows with previous / next difference.
 */
import { useCallback, useMemo, useState } from 'react';
import { rowLabel, swapDiff } from '@shared/compare/diff-runs';
import type { RunDiffView, RunFacts } from '@shared/compare/types';
import { formatDate } from '../../lib/format';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { CompareList, type CompareNavigation } from './CompareList';
import { CompareSummary } from './CompareSummary';
import { CompareWorkspaces } from './CompareWorkspaces';
import { AgentDefinitionDiff } from './AgentDefinitionDiff';
import { StepPages } from './step-pages';
import { useLoaded } from './use-loaded';

function RunTitle({ side, facts }: { side: 'A' | 'B'; facts: RunFacts }) {
  const store = useWorkbenchStore();
  return (
    <div
      className={`cmp-run side-${side.toLowerCase()}`}
      data-testid={TEST_IDS.compareRun}
      data-side={side}
      data-run-id={facts.runId}
    >
      <div className="cmp-run-line">
        <span className="cmp-side">{side}</span>
        <button
          type="button"
          className="link cmp-run-task"
          title={`Open run ${facts.runId}`}
          onClick={() => store.getState().selectRun(facts.runId)}
        >
          {facts.title ?? facts.task}
        </button>
      </div>
      {facts.title !== undefined && (
        <span className="cmp-run-subtask muted" data-testid={TEST_IDS.compareRunTask}>
          task: {facts.task}
        </span>
      )}
      <span className="muted">
        {facts.flow ? `${facts.flow} flow` : facts.agent} ·{' '}
        <span className="mono">{facts.model}</span> · {formatDate(facts.startedAt)}
        {facts.outcome === 'running' ? ' · still running' : ''}
      </span>
    </div>
  );
}

function Status({ diff, nav }: { diff: RunDiffView; nav: CompareNavigation | null }) {
  const first = diff.firstDifference === null ? null : diff.rows[diff.firstDifference]!;
  return (
    <div className="cmp-status-line">
      <span
        className={`badge ${diff.isEquivalent ? 'outcome-finished' : 'outcome-error'}`}
        data-testid={TEST_IDS.compareStatus}
        data-equivalent={diff.isEquivalent}
      >
        {diff.isEquivalent
          ? `equivalent: ${diff.rows.length} aligned steps, no difference`
          : `${diff.differences} of ${diff.rows.length} rows differ; first at ${rowLabel(diff, first!)}`}
      </span>
      {diff.sharedPrefix > 0 && (
        <span className="muted">a fork: steps up to {diff.sharedPrefix} are shared</span>
      )}
      <span className="spacer" />
      <button
        type="button"
        className="secondary"
        data-testid={TEST_IDS.comparePrev}
        disabled={diff.isEquivalent}
        title="Previous difference (p or [)"
        onClick={() => nav?.step(-1, true)}
      >
        ↑ Previous
      </button>
      <button
        type="button"
        className="secondary"
        data-testid={TEST_IDS.compareNext}
        disabled={diff.isEquivalent}
        title="Next difference (n or ])"
        onClick={() => nav?.step(1, true)}
      >
        ↓ Next difference
      </button>
    </div>
  );
}

export function PairCompare(props: { a: string; b: string; returnTo: string[] | null }) {
  const { a, b, returnTo } = props;
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const loaded = useLoaded(() => {
    // marks for the compare benchmark's breakdown (request, answer); cheap to keep
    performance.mark('wb:compare:request');
    return bridge.diffRuns(a, b).finally(() => performance.mark('wb:compare:response'));
  }, `${a}\u0000${b}`);
  const [nav, setNav] = useState<CompareNavigation | null>(null);
  // swapping sides needs no second alignment: the same rows, seen from B
  const [isSwapped, setSwapped] = useState(false);
  const loadedDiff = loaded.status === 'ready' ? loaded.value : null;
  const diff = useMemo(
    () => (loadedDiff && isSwapped ? swapDiff(loadedDiff) : loadedDiff),
    [loadedDiff, isSwapped],
  );
  const onNavigation = useCallback((n: CompareNavigation) => setNav(n), []);
  // pages by run id: kept when the sides swap, read anew with a new answer (a refresh)
  const pages = useMemo(
    () => (loadedDiff ? new StepPages(bridge.runSteps) : null),
    [loadedDiff, bridge],
  );
  const isLive = diff !== null && (diff.a.outcome === 'running' || diff.b.outcome === 'running');
  return (
    <section
      className="compare-view"
      data-testid={TEST_IDS.compareView}
      data-state={loaded.status}
      aria-label="Compare runs"
    >
      <header className="cmp-header">
        <h2>Compare runs</h2>
        <span className="spacer" />
        {returnTo && (
          <button
            type="button"
            className="secondary"
            onClick={() => store.getState().openCompare(returnTo)}
          >
            ← All {returnTo.length} runs
          </button>
        )}
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.compareSwap}
          title="Swap A and B"
          onClick={() => setSwapped((swapped) => !swapped)}
        >
          Swap A ⇄ B
        </button>
        {isLive && (
          <button type="button" className="secondary" onClick={loaded.reload}>
            Refresh
          </button>
        )}
      </header>
      {loaded.status === 'loading' && <p className="muted">Aligning the runs…</p>}
      {loaded.status === 'error' && (
        <div className="error-note" role="alert">
          Could not compare these runs: {loaded.error}{' '}
          <button type="button" className="link" onClick={loaded.reload}>
            Try again
          </button>
        </div>
      )}
      {diff && pages && (
        <>
          <div className="cmp-runs">
            <RunTitle side="A" facts={diff.a} />
            <RunTitle side="B" facts={diff.b} />
          </div>
          <CompareSummary diff={diff} />
          <AgentDefinitionDiff a={diff.a} b={diff.b} />
          <Status diff={diff} nav={nav} />
          <CompareList
            key={`${a}\u0000${b}\u0000${isSwapped}`}
            diff={diff}
            pages={pages}
            onNavigation={onNavigation}
          />
          <CompareWorkspaces
            diff={diff}
            current={nav?.current ?? null}
            onGoToRow={(row) => nav?.goTo(row)}
          />
        </>
      )}
    </section>
  );
}
