import { useEffect } from 'react';
import type { WorkbenchStore } from '../../store/store';
import { useWorkbenchStore } from '../../store/StoreProvider';
import { hasUnsavedSettings, installSettingsGuard } from '../../store/settings-guard';

/**
 * Asks before unsaved Settings edits are lost: the browser's own "Leave site?" on a
 * reload or a closed tab, and the in-app dialog (UnsavedDialog) when another page is
 * chosen (store/settings-guard.ts).
 */
export function useSettingsGuard(store: WorkbenchStore): void {
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedSettings(store.getState())) return;
      event.preventDefault();
      // Chromium and Electron ask only when returnValue is set as well.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const stop = installSettingsGuard(store);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      stop();
    };
  }, [store]);
}

/** Tells the guard that a Settings page holds unsaved edits of its own. */
export function usePageDirty(page: string, isDirty: boolean): void {
  const store = useWorkbenchStore();
  useEffect(() => {
    store.getState().setPageDirty(page, isDirty);
  }, [store, page, isDirty]);
  useEffect(() => () => store.getState().setPageDirty(page, false), [store, page]);
}
