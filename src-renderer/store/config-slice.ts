/**
 * The config editor's state: the effective config from the main process (with the
 * provenance of each value), unsaved drafts per page, and the state of each page's
 * save and connection test. Drafts survive switching pages.
 */
import type { StateCreator } from 'zustand';
import type { ApiKeyEdit, ConfigTarget, ConfigView, ConnectionTestResult } from '@shared/ipc';
import type { FieldKey, RawValue } from './config/config-fields';
import { EMPTY_DRAFT, type ConfigDraft, type FieldErrors } from './config/config-draft';
import type { WorkbenchState } from './store';
import type { SettingsPage, View } from './ui-slice';

export type OpState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; message: string }
  | { status: 'failed'; message: string; fieldErrors?: FieldErrors; other?: string[] };

export interface ConfigSlice {
  config: ConfigView | null;
  configError: string | null;
  drafts: Partial<Record<ConfigTarget, ConfigDraft>>;
  saveOps: Partial<Record<ConfigTarget, OpState>>;
  testOps: Partial<Record<ConfigTarget, OpState & { result?: ConnectionTestResult }>>;
  setConfig(config: ConfigView): void;
  setConfigError(message: string | null): void;
  editField(target: ConfigTarget, key: FieldKey, value: RawValue | null): void;
  /** drops the draft of one field (back to the saved value) */
  revertField(target: ConfigTarget, key: FieldKey): void;
  editApiKey(target: ConfigTarget, edit: ApiKeyEdit | undefined): void;
  discardDraft(target: ConfigTarget): void;
  setSaveOp(target: ConfigTarget, op: OpState): void;
  setTestOp(target: ConfigTarget, op: OpState & { result?: ConnectionTestResult }): void;
  /** Settings pages whose unsaved edits live in the page itself (sandbox, browser, mcp) */
  dirtyPages: Partial<Record<string, boolean>>;
  setPageDirty(page: string, isDirty: boolean): void;
  /** a page change held back because Settings has unsaved edits (settings-guard.ts) */
  leaveRequest: LeaveRequest | null;
  setLeaveRequest(request: LeaveRequest | null): void;
  /** drops every unsaved Settings edit */
  discardAllSettings(): void;
}

/** Where the user asked to go: another page, or another Settings page. */
export interface LeaveRequest {
  view: View;
  settingsSection: SettingsPage | null;
  configTarget: ConfigTarget;
}

export const createConfigSlice: StateCreator<WorkbenchState, [], [], ConfigSlice> = (set) => ({
  config: null,
  configError: null,
  drafts: {},
  saveOps: {},
  testOps: {},
  setConfig: (config) => set({ config, configError: null }),
  setConfigError: (configError) => set({ configError }),
  editField: (target, key, value) =>
    set((s) => {
      const draft = s.drafts[target] ?? EMPTY_DRAFT;
      return {
        drafts: { ...s.drafts, [target]: { ...draft, fields: { ...draft.fields, [key]: value } } },
        saveOps: { ...s.saveOps, [target]: { status: 'idle' } },
      };
    }),
  revertField: (target, key) =>
    set((s) => {
      const draft = s.drafts[target] ?? EMPTY_DRAFT;
      const fields = { ...draft.fields };
      delete fields[key];
      return { drafts: { ...s.drafts, [target]: { ...draft, fields } } };
    }),
  editApiKey: (target, edit) =>
    set((s) => {
      const draft = s.drafts[target] ?? EMPTY_DRAFT;
      const next: ConfigDraft = { fields: draft.fields };
      if (edit) next.apiKey = edit;
      return {
        drafts: { ...s.drafts, [target]: next },
        saveOps: { ...s.saveOps, [target]: { status: 'idle' } },
      };
    }),
  discardDraft: (target) =>
    set((s) => {
      const drafts = { ...s.drafts };
      delete drafts[target];
      return { drafts };
    }),
  setSaveOp: (target, op) => set((s) => ({ saveOps: { ...s.saveOps, [target]: op } })),
  setTestOp: (target, op) => set((s) => ({ testOps: { ...s.testOps, [target]: op } })),
  dirtyPages: {},
  setPageDirty: (page, isDirty) =>
    set((s) =>
      Boolean(s.dirtyPages[page]) === isDirty
        ? {}
        : { dirtyPages: { ...s.dirtyPages, [page]: isDirty } },
    ),
  leaveRequest: null,
  setLeaveRequest: (leaveRequest) => set({ leaveRequest }),
  discardAllSettings: () => set({ drafts: {}, dirtyPages: {}, leaveRequest: null }),
});
