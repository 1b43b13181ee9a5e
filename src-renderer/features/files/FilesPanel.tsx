/**
 * The Files panel of the run view (issue 32): the workspace as it was at the selected
 * step (from the run's checkpoints), with sizes and what the step changed; a file opens
 * below the tree; "What this step changed" shows the step's diff. The running step of a
 * run that is going on has no checkpoint yet: it shows the workspace live (LiveFiles.tsx).
 */
import { useState } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { FileTree } from './FileTree';
import { FileViewer } from './FileViewer';
import { LiveFiles } from './LiveFiles';
import { StepDiff } from './StepDiff';
import { useLiveFiles } from './use-live-files';
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
  const isRunning = useWorkbench((s) => {
    const summary = s.runs[runId]?.summary;
    return summary !== undefined && summary.outcome === undefined && !summary.isInterrupted;
  });
  const step = chosen ?? selected ?? lastStep;
  const [openPath, setOpenPath] = useState<string | null>(null);
  // the step under way (no checkpoint yet): its files as they are now
  const isLiveStep = mode === 'tree' && isRunning && step >= lastStep;
  const live = useLiveFiles(runId, isLiveStep);
  const isLive = isLiveStep && live.view?.unavailable === undefined;
  const tree = useRequest(mode === 'tree' && !isLive ? `${runId}/${step}` : null, () =>
    bridge.files.getRunFiles({ runId, step }),
  );
  return (
    <div
      className="files-panel"
      data-testid={TEST_IDS.filesPanel}
      data-step={step}
      data-live={isLive ? 'true' : undefined}
      data-as-of={!isLive && tree.status === 'loaded' ? tree.value.asOf : undefined}
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
      {isLiveStep && live.view?.unavailable !== undefined && (
        <p className="muted" data-testid={TEST_IDS.filesLiveNote}>
          {`No live view of the running step: ${live.view.unavailable}`}
        </p>
      )}
      {mode === 'diff' ? (
        <StepDiff runId={runId} step={step} toolCallId={toolCallId} />
      ) : isLive && live.view ? (
        <LiveFiles runId={runId} view={live.view} />
      ) : isLive && live.error !== undefined ? (
        <p className="error-note" role="alert">
          {live.error}
        </p>
      ) : isLive ? (
        <p className="muted">Listing the running step's files…</p>
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
