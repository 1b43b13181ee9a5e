import { memo, useCallback, useMemo, useRef, useState } from 'react';
import type { RunSummary } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { filterHistory, historyFacets, nestForks, type HistoryFilters } from '../../store/history';
import { runStatus, type RunStatus } from '../../store/run-events';
import { runVerdict } from '@shared/run-outcome';
import { VerdictBadge } from '../../components/VerdictBadge';
import { HealthLine } from '../../components/HealthLine';
import { formatDate } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { CompareBar, CompareCheckbox } from './CompareSelection';
import { HistoryRowActions } from './HistoryRowActions';
import { BatchGroupRow } from './BatchGroupRow';
import { groupBatches } from '../../store/history-batches';

const STATUSES: (RunStatus | 'all')[] = [
  'all',
  'running',
  'finished',
  'max_steps',
  'error',
  'cancelled',
  'interrupted',
];

/** The sidebar: "New run", the history filters and the list of runs, newest first. */
export function RunHistory() {
  const store = useWorkbenchStore();
  const bridge = useBridge();
  const runs = useWorkbench((s) => s.runs);
  const order = useWorkbench((s) => s.order);
  const filters = useWorkbench((s) => s.historyFilters);
  const selectedRunId = useWorkbench((s) => s.selectedRunId);
  const view = useWorkbench((s) => s.view);
  const now = useNow(true, 60_000);
  const rows = useMemo(
    () => nestForks(filterHistory(runs, order, filters, now)),
    [runs, order, filters, now],
  );
  // A batch's runs sit under one entry, closed until the user opens it (or shows one of
  // its runs, or filters by it); what the user opened or closed stays so.
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const list = useMemo(
    () =>
      groupBatches(rows, {
        toggled,
        filteredBatch: filters.batch,
        shownRunId: view === 'run' && selectedRunId ? selectedRunId : undefined,
      }),
    [rows, toggled, filters.batch, view, selectedRunId],
  );
  const toggleBatch = useCallback((batchId: string, wasOpen: boolean) => {
    setToggled((before) => new Map(before).set(batchId, !wasOpen));
  }, []);
  const facets = useMemo(() => historyFacets(runs, order), [runs, order]);
  const fileRef = useRef<HTMLInputElement>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [importNotes, setImportNotes] = useState<{ headline: string; warnings: string[] } | null>(
    null,
  );
  const set = (patch: Partial<HistoryFilters>) => store.getState().setHistoryFilters(patch);

  const onImport = async (file: File | undefined) => {
    if (!file) return;
    setImportError(null);
    setImportNotes(null);
    try {
      const { runId, warnings, isAlreadyPresent } = await bridge.importRun(
        await file.text(),
        file.name,
      );
      // what was skipped, or that nothing was imported, is said where the user imported
      const title = store.getState().runs[runId]?.summary?.title;
      if (isAlreadyPresent) {
        setImportNotes({
          headline: `${file.name}: this run${title ? ` (“${title}”)` : ''} is already in the history with the same events; nothing imported.`,
          warnings,
        });
      } else if (warnings.length > 0) {
        setImportNotes({
          headline: `Imported ${file.name} with ${warnings.length} note${warnings.length === 1 ? '' : 's'}:`,
          warnings,
        });
      }
      store.getState().selectRun(runId);
    } catch (error) {
      setImportError(`${file.name}: ${(error as Error).message}`);
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <nav className="sidebar" aria-label="Run history">
      <button
        type="button"
        className={`new-run-button${view === 'new' ? ' is-active' : ''}`}
        data-testid={TEST_IDS.newRun}
        onClick={() => store.getState().showView('new')}
      >
        + New run
      </button>
      <div className="history-filters">
        <input
          type="search"
          data-testid={TEST_IDS.historySearch}
          placeholder="Search runs"
          aria-label="Search runs"
          value={filters.text}
          onChange={(e) => set({ text: e.target.value })}
        />
        <div className="filter-grid">
          <select
            aria-label="Status"
            data-testid={TEST_IDS.historyStatus}
            value={filters.status}
            onChange={(e) => set({ status: e.target.value as HistoryFilters['status'] })}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === 'all' ? 'any status' : s.replace('_', ' ')}
              </option>
            ))}
          </select>
          <select
            aria-label="Agent"
            data-testid={TEST_IDS.historyAgent}
            value={filters.agent}
            onChange={(e) => set({ agent: e.target.value, agentVersion: 'all' })}
          >
            <option value="all">any agent</option>
            {facets.agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          {(facets.agentVersions.get(filters.agent)?.length ?? 0) > 0 && (
            <select
              aria-label="Agent version"
              data-testid={TEST_IDS.historyAgentVersion}
              value={filters.agentVersion}
              onChange={(e) => set({ agentVersion: e.target.value })}
            >
              <option value="all">any version</option>
              {facets.agentVersions.get(filters.agent)!.map((v) => (
                <option key={v} value={String(v)}>
                  {filters.agent}@{v}
                </option>
              ))}
            </select>
          )}
          <select
            aria-label="Model"
            data-testid={TEST_IDS.historyModel}
            value={filters.model}
            onChange={(e) => set({ model: e.target.value })}
          >
            <option value="all">any model</option>
            {facets.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <select
            aria-label="Date"
            data-testid={TEST_IDS.historyDate}
            value={filters.date}
            onChange={(e) => set({ date: e.target.value as HistoryFilters['date'] })}
          >
            <option value="all">any time</option>
            <option value="today">today</option>
            <option value="7d">last 7 days</option>
            <option value="30d">last 30 days</option>
          </select>
          {facets.batches.length > 0 && (
            <select
              aria-label="Batch"
              className="filter-wide"
              data-testid={TEST_IDS.historyBatchFilter}
              value={filters.batch}
              onChange={(e) => set({ batch: e.target.value })}
            >
              <option value="all">any batch or none</option>
              <option value="none">not in a batch</option>
              {facets.batches.map((b) => (
                <option key={b.batchId} value={b.batchId}>
                  {`batch ${b.batchId} (${b.runs} run${b.runs === 1 ? '' : 's'})`}
                </option>
              ))}
            </select>
          )}
        </div>
        <div className="filter-checks">
          <label title="Runs that failed, or whose tool calls failed">
            <input
              type="checkbox"
              data-testid={TEST_IDS.historyErrors}
              checked={filters.isErrorsOnly}
              onChange={(e) => set({ isErrorsOnly: e.target.checked })}
            />{' '}
            has errors
          </label>
          <label title="Runs in which stuck detection fired">
            <input
              type="checkbox"
              data-testid={TEST_IDS.historyStuck}
              checked={filters.isStuckOnly}
              onChange={(e) => set({ isStuckOnly: e.target.checked })}
            />{' '}
            stuck
          </label>
        </div>
      </div>
      <CompareBar />
      {list.length === 0 ? (
        <p className="muted history-empty" data-testid={TEST_IDS.historyEmpty}>
          {order.length === 0
            ? 'No runs yet. Start one with “New run”.'
            : 'No runs match these filters.'}
        </p>
      ) : (
        <ul className="history-list">
          {list.map((entry) =>
            entry.kind === 'batch' ? (
              <BatchGroupRow
                key={`batch:${entry.batchId}`}
                entry={entry}
                now={now}
                onToggle={toggleBatch}
              />
            ) : (
              <HistoryItem
                key={entry.summary.runId}
                summary={entry.summary}
                depth={entry.depth}
                isSelected={entry.summary.runId === selectedRunId && view === 'run'}
                now={now}
              />
            ),
          )}
        </ul>
      )}
      <div className="history-footer">
        <button type="button" className="link" onClick={() => fileRef.current?.click()}>
          Import a run (.jsonl)…
        </button>
        <input
          ref={fileRef}
          type="file"
          accept=".jsonl,.json,application/x-ndjson"
          hidden
          onChange={(e) => void onImport(e.target.files?.[0])}
        />
        {importError && (
          <p className="field-error" role="alert" data-testid={TEST_IDS.importError}>
            {importError}
          </p>
        )}
        {importNotes && <ImportNotes {...importNotes} onClose={() => setImportNotes(null)} />}
      </div>
    </nav>
  );
}

const HistoryItem = memo(function HistoryItem(props: {
  summary: RunSummary;
  depth: number;
  isSelected: boolean;
  now: number;
}) {
  const store = useWorkbenchStore();
  const { summary, isSelected, now, depth } = props;
  const status = runStatus(summary);
  const origin = summary.forkOf ?? summary.resumeOf ?? summary.continueOf;
  return (
    <li
      className={`history-row${depth > 0 ? ' is-branch' : ''}`}
      data-depth={depth}
      style={depth > 0 ? { paddingLeft: `${Math.min(depth, 4) * 14}px` } : undefined}
    >
      <CompareCheckbox runId={summary.runId} task={summary.task} />
      <button
        type="button"
        className={`history-item${isSelected ? ' is-selected' : ''}`}
        data-testid={TEST_IDS.runHistoryItem}
        data-run-id={summary.runId}
        data-fork-of={summary.forkOf?.runId}
        data-continue-of={summary.continueOf?.runId}
        data-status={status}
        data-verdict={runVerdict(summary).kind}
        aria-current={isSelected ? 'true' : undefined}
        onClick={() => store.getState().selectRun(summary.runId)}
      >
        <span
          className="history-task"
          data-testid={TEST_IDS.historyTitle}
          title={summary.title ? summary.task : undefined}
        >
          {origin && (
            <span className="muted" title={`From run ${origin.runId}`}>
              {summary.forkOf
                ? `↳ fork at step ${origin.step}: `
                : summary.resumeOf
                  ? `↳ resumed at step ${origin.step}: `
                  : `↳ continued after step ${origin.step}: `}
            </span>
          )}
          {summary.rerunOf && !origin && (
            <span
              className="muted"
              data-testid={TEST_IDS.historyRerunOf}
              data-rerun-of={summary.rerunOf}
              title={`Re-run of run ${summary.rerunOf}${rerunWithText(summary)}`}
            >
              {summary.rerunSettings === 'current' ? '↻ re-run (today’s settings): ' : '↻ re-run: '}
            </span>
          )}
          {summary.title ?? summary.task}
        </span>
        <span className="history-meta">
          <VerdictBadge summary={summary} variant="dot" />
          <span>· {summary.flow ? `${summary.flow} flow` : summary.agent}</span>
          <span className="mono">· {summary.model}</span>
          <span className="history-date">{formatDate(summary.startedAt, now)}</span>
        </span>
        <span className="history-meta">
          <HealthLine summary={summary} now={now} isCompact testId={TEST_IDS.historyHealth} />
        </span>
      </button>
      {isSelected && <HistoryRowActions summary={summary} />}
    </li>
  );
});

/** How a re-run was set up, for its marker's tooltip. */
function rerunWithText(summary: RunSummary): string {
  if (summary.rerunSettings === 'current')
    return ' with the settings config.toml had when the re-run started';
  if (summary.rerunSettings === 'recorded') return ' with the settings that run recorded';
  return '';
}

/** Shown at most: a damaged file can have a warning per line. */
const NOTES_SHOWN = 5;

/**
 * What an import skipped or could not keep (damaged lines, images refused or missing), or
 * that the run was already there and nothing was imported.
 */
function ImportNotes(props: { headline: string; warnings: string[]; onClose: () => void }) {
  const { headline, warnings } = props;
  const rest = warnings.length - NOTES_SHOWN;
  return (
    <div className="import-notes" role="status" data-testid={TEST_IDS.importNotes}>
      <p>{headline}</p>
      {warnings.length > 0 && (
        <ul>
          {warnings.slice(0, NOTES_SHOWN).map((warning, i) => (
            <li key={i}>{warning}</li>
          ))}
        </ul>
      )}
      {rest > 0 && <p className="muted">{`and ${rest} more`}</p>}
      <button type="button" className="link" onClick={props.onClose}>
        dismiss
      </button>
    </div>
  );
}
