import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { discardAndLeave } from '../../store/settings-guard';

/** Shown when a page change would lose unsaved Settings edits: keep editing, or discard. */
export function UnsavedDialog() {
  const store = useWorkbenchStore();
  const request = useWorkbench((s) => s.leaveRequest);
  if (!request) return null;
  return (
    <div
      className="warn-note unsaved-dialog"
      role="alertdialog"
      aria-label="Unsaved changes"
      data-testid={TEST_IDS.settingsUnsaved}
    >
      <strong>You have unsaved changes in Settings.</strong> Leaving this page discards them.{' '}
      <button type="button" onClick={() => store.getState().setLeaveRequest(null)}>
        Keep editing
      </button>{' '}
      <button
        type="button"
        className="secondary"
        data-testid={TEST_IDS.settingsDiscardLeave}
        onClick={() => discardAndLeave(store)}
      >
        Discard and leave
      </button>
    </div>
  );
}
