/**
 * The Files panel of the run view (issue 32): the workspace as it was at the selected
 * step (from the run's checkpoints), with sizes and what the step changed; a file opens
 * below the tree; "What this step changed" shows the step's diff. Folders open one level
 * at a time: a 5,000-file workspace renders only what is open.
 */
import { useMemo, useState } from 'react';
import type { WorkspaceEntryView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { FileViewer } from './FileViewer';
import { formatBytes } from './format-bytes';
import { StepDiff } from './StepDiff';
import { useFilesView } from '../../store/files-view';
import { useRequest } from './use-request';
import { useSelectedStep } from './use-selected-step';

export function FilesPanel({ runId }: { runId: string }) {
  const view = useFilesView();
  const isOpen = view.isOpen && view.runId === runId;
  return (
    <section className="files-panel-wrap" aria-label="Files">
      <button
        type="button"
        className="link"
        data-testid={TEST_IDS.filesToggle}
        aria-expanded={isOpen}
        onClick={() => (isOpen ? view.close() : view.open(runId))}
      >
        {isOpen ? '▾ Files' : '▸ Files'}
      </button>
      {isOpen && <OpenFilesPanel runId={runId} />}
    </section>
  );
}

function OpenFilesPanel({ runId }: { runId: string }) {
  const bridge = useBridge();
  const { step: chosen, mode, toolCallId, setStep, setMode } = useFilesView();
  const selected = useSelectedStep(runId);
  const lastStep = useWorkbench((s) => s.runs[runId]?.summary?.steps ?? 0);
  const step = chosen ?? selected ?? lastStep;
  const [openPath, setOpenPath] = useState<string | null>(null);
  const tree = useRequest(mode === 'tree' ? `${runId}/${step}` : null, () =>
    bridge.files.getRunFiles({ runId, step }),
  );
  return (
    <div
      className="files-panel"
      data-testid={TEST_IDS.filesPanel}
      data-step={step}
      data-as-of={tree.status === 'loaded' ? tree.value.asOf : undefined}
    >
      <div className="files-bar">
        <label>
          Step{' '}
          <input
            type="number"
            min={0}
            value={step}
            data-testid={TEST_IDS.filesStep}
            onChange={(e) => {
              const value = Number(e.target.value);
              if (Number.isInteger(value) && value >= 0) setStep(value);
            }}
          />
        </label>
        <button
          type="button"
          className="link"
          onClick={() => setStep(null)}
          title="Follow the step of the selected row"
        >
          Selected step
        </button>
        <button
          type="button"
          data-testid={TEST_IDS.filesDiffButton}
          onClick={() => setMode(mode === 'tree' ? 'diff' : 'tree')}
        >
          {mode === 'tree' ? 'What this step changed' : 'The files at this step'}
        </button>
      </div>
      {mode === 'diff' ? (
        <StepDiff runId={runId} step={step} toolCallId={toolCallId} />
      ) : tree.status === 'loading' ? (
        <p className="muted">Loading the files…</p>
      ) : tree.status === 'failed' ? (
        <p className="error-note" role="alert">
          {tree.error}
        </p>
      ) : (
        <>
          {tree.value.note && (
            <p className="muted" data-testid={TEST_IDS.filesNote}>
              {tree.value.note}
            </p>
          )}
          {tree.value.deleted.length > 0 && (
            <p className="muted">{`Deleted in this step: ${tree.value.deleted.join(', ')}`}</p>
          )}
          <FileTree entries={tree.value.entries} openPath={openPath} onOpen={setOpenPath} />
          {openPath && <FileViewer runId={runId} step={step} path={openPath} />}
        </>
      )}
    </div>
  );
}

function FileTree({
  entries,
  openPath,
  onOpen,
}: {
  entries: WorkspaceEntryView[];
  openPath: string | null;
  onOpen: (path: string) => void;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // changed files inside a folder mark the folder too
  const changedFolders = useMemo(() => {
    const out = new Set<string>();
    for (const e of entries) {
      if (!e.change) continue;
      const parts = e.path.split('/');
      for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
    }
    return out;
  }, [entries]);
  const shown = entries.filter((e) => {
    const parent = e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : '';
    if (parent === '') return true;
    const parts = parent.split('/');
    return parts.every((_, i) => expanded.has(parts.slice(0, i + 1).join('/')));
  });
  if (entries.length === 0) return <p className="muted">The workspace is empty.</p>;
  return (
    <ul className="files-tree" role="tree">
      {shown.map((e) => {
        const depth = e.path.split('/').length - 1;
        const name = e.path.slice(e.path.lastIndexOf('/') + 1);
        const isFolder = e.kind === 'folder';
        const isExpanded = expanded.has(e.path);
        return (
          <li
            key={e.path}
            role="treeitem"
            aria-selected={openPath === e.path}
            aria-expanded={isFolder ? isExpanded : undefined}
            className={`files-entry${e.change ? ` change-${e.change}` : ''}${changedFolders.has(e.path) ? ' has-changes' : ''}`}
            data-testid={TEST_IDS.filesEntry}
            data-path={e.path}
            data-kind={e.kind}
            data-change={e.change}
            style={{ paddingLeft: `${depth * 14 + 4}px` }}
          >
            <button
              type="button"
              className="link"
              onClick={() => {
                if (!isFolder) return onOpen(e.path);
                const next = new Set(expanded);
                if (isExpanded) next.delete(e.path);
                else next.add(e.path);
                setExpanded(next);
              }}
            >
              {isFolder ? `${isExpanded ? '▾' : '▸'} ${name}/` : name}
            </button>
            {!isFolder && <span className="muted">{formatBytes(e.size)}</span>}
            {e.change && <span className={`chip chip-${e.change}`}>{e.change}</span>}
            {e.skipped && (
              <span className="muted" title={e.skipped}>
                not in the snapshots
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
