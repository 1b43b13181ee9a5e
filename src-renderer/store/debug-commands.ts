/**
 * The debugger's requests (`debug:*`), for the debugger bar. Their effects come back
 * as run events (paused, resumed, edited, breakpoints changed), which the bridge folds
 * into the store like every other event; a refusal throws AppApiError for the caller
 * to show in place.
 */
import type {
  AppApi,
  ApprovalRule,
  Breakpoint,
  DebugEdit,
  DebugStatus,
  EditResult,
  StepScope,
} from '@shared/ipc';

export interface DebugCommands {
  pause(runId: string): Promise<DebugStatus>;
  resume(runId: string): Promise<DebugStatus>;
  step(runId: string, scope: StepScope): Promise<DebugStatus>;
  setBreakpoint(runId: string, spec: string): Promise<Breakpoint>;
  clearBreakpoint(runId: string, id: string): Promise<void>;
  setApproval(runId: string, tools: string[]): Promise<ApprovalRule[]>;
  edit(runId: string, edit: DebugEdit): Promise<EditResult>;
}

export function createDebugCommands(api: AppApi): DebugCommands {
  return {
    pause: (runId) => api.pauseRun({ runId }),
    resume: (runId) => api.resumeRun({ runId }),
    step: (runId, scope) => api.stepRun({ runId, scope }),
    setBreakpoint: (runId, spec) => api.setBreakpoint({ runId, spec }),
    clearBreakpoint: async (runId, id) => {
      await api.clearBreakpoint({ runId, id });
    },
    setApproval: async (runId, tools) => (await api.setApproval({ runId, tools })).approvals,
    edit: (runId, edit) => api.editRun({ runId, edit }),
  };
}
