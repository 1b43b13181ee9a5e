/**
 * "Workspaces" on the compare page (issue 32 item 5): the files that differ between the
 * two runs' workspaces at the end (each run's last checkpoint), and at the selected row's
 * two steps when the row aligns a step with a step (`runs:workspaces-diff`, read from the
 * checkpoints; only the paths and sizes come over, never the files), and the first aligned
 * pair of steps where they part, as `runs diff` says it, with a link to that row
 * (`runs:workspaces-first`).
 */
import { alignedStepPairs, alignedSteps } from '@shared/compare/aligned-steps';
import { rowLabel } from '@shared/compare/diff-runs';
import type { RunDiffView } from '@shared/compare/types';
import type {
  WorkspaceDifference,
  WorkspacesDiffView,
  WorkspacesFirstDivergenceView,
} from '@shared/domain/files';
import { useBridge } from '../../store/StoreProvider';
import { TEST_IDS } from '../../test-ids';
import { useLoaded } from './use-loaded';

const WHAT: Record<WorkspaceDifference['difference'], string> = {
  added: 'only in B',
  missing: 'missing in B',
  changed: 'other content',
};

function sizes(file: WorkspaceDifference): string {
  if (file.kind === 'folder') return 'folder';
  if (file.difference === 'changed' && file.sizeA !== file.sizeB) {
    return `${file.sizeA ?? 0} → ${file.sizeB ?? 0} bytes`;
  }
  return `${file.sizeB ?? file.sizeA ?? 0} bytes`;
}

function Differences({ view, where }: { view: WorkspacesDiffView; where: string }) {
  if (view.unavailable !== undefined) {
    return <p className="muted">Not compared: {view.unavailable}</p>;
  }
  const at = `A step ${view.a.asOf}, B step ${view.b.asOf}`;
  if (view.files.length === 0) {
    return (
      <p className="muted">
        The same {where} ({at}).
      </p>
    );
  }
  const count = view.truncatedAt !== undefined ? `Over ${view.truncatedAt}` : view.files.length;
  return (
    <>
      <p>
        {count} {view.files.length === 1 ? 'file differs' : 'files differ'} {where} ({at}):
      </p>
      <ul className="cmp-ws-files">
        {view.files.map((file) => (
          <li
            key={file.path}
            data-testid={TEST_IDS.compareWorkspaceFile}
            data-path={file.path}
            data-difference={file.difference}
          >
            <span className="mono">{file.path}</span>{' '}
            <span className="muted">
              {WHAT[file.difference]} · {sizes(file)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The files that differ at a pair of steps, or (`end`) at each run's end; null: no request. */
function useWorkspacesDiff(
  a: string,
  b: string,
  steps: { stepA: number; stepB: number } | 'end' | null,
) {
  const bridge = useBridge();
  const key = steps === 'end' ? 'end' : steps ? `${steps.stepA}:${steps.stepB}` : 'none';
  return useLoaded<WorkspacesDiffView | null>(
    () =>
      steps === null
        ? Promise.resolve(null)
        : bridge.files.diffRunWorkspaces(steps === 'end' ? { a, b } : { a, b, ...steps }),
    `${a}\u0000${b}\u0000${key}`,
  );
}

function Loaded({
  loaded,
  where,
}: {
  loaded: ReturnType<typeof useWorkspacesDiff>;
  where: string;
}) {
  if (loaded.status === 'loading') return <p className="muted">Comparing the files…</p>;
  if (loaded.status === 'error') {
    return (
      <p className="error-note" role="alert">
        Could not compare the files: {loaded.error}
      </p>
    );
  }
  return loaded.value && <Differences view={loaded.value} where={where} />;
}

/** Where the workspaces first part, over the rows that align a step with a step. */
function FirstDivergence({
  diff,
  onGoToRow,
}: {
  diff: RunDiffView;
  onGoToRow: ((row: number) => void) | undefined;
}) {
  const bridge = useBridge();
  const a = diff.a.runId;
  const b = diff.b.runId;
  const pairs = alignedStepPairs(diff);
  const loaded = useLoaded<WorkspacesFirstDivergenceView>(
    () => bridge.files.firstWorkspaceDivergence({ a, b, pairs }),
    `${a}\u0000${b}\u0000${pairs.length}`,
  );
  if (loaded.status !== 'ready') return null;
  const first = loaded.value.first;
  if (!first) {
    return (
      <p className="muted" data-testid={TEST_IDS.compareWorkspacesFirst} data-row="">
        The same at every aligned step.
      </p>
    );
  }
  const row = diff.rows[first.row];
  const label = row ? rowLabel(diff, row) : `row ${first.row + 1}`;
  const count = first.diff.truncatedAt ?? first.diff.files.length;
  return (
    <p data-testid={TEST_IDS.compareWorkspacesFirst} data-row={first.row}>
      First differ at{' '}
      <button
        type="button"
        className="link"
        data-testid={TEST_IDS.compareWorkspacesFirstLink}
        title="Show this row"
        onClick={() => onGoToRow?.(first.row)}
      >
        {label}
      </button>{' '}
      (A step {first.stepA}, B step {first.stepB}): {count} {count === 1 ? 'file' : 'files'}
    </p>
  );
}

export function CompareWorkspaces({
  diff,
  current,
  onGoToRow,
}: {
  diff: RunDiffView;
  current: number | null;
  /** selects a row of the comparison (the first divergence's link) */
  onGoToRow?: (row: number) => void;
}) {
  const a = diff.a.runId;
  const b = diff.b.runId;
  const end = useWorkspacesDiff(a, b, 'end');
  const row = current !== null ? diff.rows[current] : undefined;
  const steps = row ? alignedSteps(diff, row) : null;
  const atRow = useWorkspacesDiff(a, b, steps);
  const differs = end.status === 'ready' && (end.value?.files.length ?? 0) > 0;
  return (
    <section
      className="cmp-workspaces"
      data-testid={TEST_IDS.compareWorkspaces}
      data-differs={end.status === 'ready' ? differs : undefined}
      aria-label="Workspaces"
    >
      <h3>{differs ? 'Workspaces differ' : 'Workspaces'}</h3>
      <div data-testid={TEST_IDS.compareWorkspacesEnd}>
        <Loaded loaded={end} where="at the end" />
      </div>
      {end.status === 'ready' && end.value?.unavailable === undefined && (
        <FirstDivergence diff={diff} onGoToRow={onGoToRow} />
      )}
      {row && (
        <div data-testid={TEST_IDS.compareWorkspacesRow} data-row={current}>
          {steps ? (
            <Loaded loaded={atRow} where={`at ${rowLabel(diff, row)}`} />
          ) : (
            <p className="muted">
              {rowLabel(diff, row)}: this row does not align a step of A with a step of B.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
