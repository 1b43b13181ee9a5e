/**
 * Unsaved Settings edits are not lost without asking (issue 25 item 11): leaving
 * Settings (a nav button, a run picked in the history, the address) while a page has
 * unsaved edits is held back, and the page change waits in `leaveRequest` until the
 * user keeps editing or discards them (UnsavedDialog). Switching between Settings pages
 * keeps the agents' and profiles' drafts (they live in the store); a Sandbox, Browser or
 * MCP page keeps its edits in itself, so leaving it is held back the same way.
 */
import type { WorkbenchState, WorkbenchStore } from './store';
import { isDraftEmpty } from './config/config-draft';
import type { ConfigTarget } from '@shared/ipc';

/** Any unsaved edit on any Settings page (a page whose Save is on its way is not one). */
export function hasUnsavedSettings(s: WorkbenchState): boolean {
  const isUnsaved = (target: ConfigTarget) =>
    !isDraftEmpty(s.drafts[target]) && s.saveOps[target]?.status !== 'running';
  return (
    Object.keys(s.drafts).some((t) => isUnsaved(t as ConfigTarget)) ||
    Object.values(s.dirtyPages).some(Boolean)
  );
}

/** Holds back page changes that would lose edits; returns the unsubscribe. */
export function installSettingsGuard(store: WorkbenchStore): () => void {
  return store.subscribe((s, prev) => {
    if (prev.view !== 'config' || s.leaveRequest) return;
    const leavesSettings = s.view !== 'config' && hasUnsavedSettings(prev);
    const leavesDirtyPage =
      s.view === 'config' &&
      prev.settingsSection !== null &&
      s.settingsSection !== prev.settingsSection &&
      Boolean(prev.dirtyPages[prev.settingsSection]);
    if (!leavesSettings && !leavesDirtyPage) return;
    store.setState({
      view: 'config',
      settingsSection: prev.settingsSection,
      configTarget: prev.configTarget,
      leaveRequest: {
        view: s.view,
        settingsSection: s.settingsSection,
        configTarget: s.configTarget,
      },
    });
  });
}

/** The user chose to discard: every draft goes, and the held-back page change happens. */
export function discardAndLeave(store: WorkbenchStore): void {
  const request = store.getState().leaveRequest;
  store.getState().discardAllSettings();
  if (request) store.setState(request);
}
