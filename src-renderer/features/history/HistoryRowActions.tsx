/**
 * Rename and delete for the run shown in the history. Delete asks once, in place (no
 * browser dialog: it would block the window and the e2e specs), and says what goes:
 * the run's history file and, for a run with its own workspace, its container.
 */
import { useState } from 'react';
import type { RunSummary } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';

type Mode = { kind: 'idle' } | { kind: 'renaming'; text: string } | { kind: 'confirming' };

export function HistoryRowActions({ summary }: { summary: RunSummary }) {
  const bridge = useBridge();
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setMode({ kind: 'idle' });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const isLive = summary.outcome === undefined && !summary.isInterrupted;

  return (
    <div className="history-actions">
      {mode.kind === 'renaming' ? (
        <form
          className="history-rename"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => bridge.renameRun(summary.runId, mode.text));
          }}
        >
          <input
            autoFocus
            aria-label="Run title"
            data-testid={TEST_IDS.historyRenameInput}
            value={mode.text}
            placeholder={summary.task}
            maxLength={200}
            onChange={(e) => setMode({ kind: 'renaming', text: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setMode({ kind: 'idle' });
            }}
          />
          <button type="submit" disabled={isBusy} data-testid={TEST_IDS.historyRenameSave}>
            Save
          </button>
        </form>
      ) : mode.kind === 'confirming' ? (
        <div className="history-confirm" role="alert">
          <span>Delete this run{isLive ? ' (it is stopped first)' : ''} and its history file?</span>
          <button
            type="button"
            className="danger"
            disabled={isBusy}
            data-testid={TEST_IDS.historyDeleteConfirm}
            onClick={() => void act(() => bridge.deleteRun(summary.runId))}
          >
            Delete
          </button>
          <button type="button" className="link" onClick={() => setMode({ kind: 'idle' })}>
            Cancel
          </button>
        </div>
      ) : (
        <>
          <button
            type="button"
            className="link"
            data-testid={TEST_IDS.historyRename}
            onClick={() => setMode({ kind: 'renaming', text: summary.title ?? summary.task })}
          >
            Rename
          </button>
          <button
            type="button"
            className="link"
            data-testid={TEST_IDS.historyDelete}
            onClick={() => setMode({ kind: 'confirming' })}
          >
            Delete
          </button>
        </>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
