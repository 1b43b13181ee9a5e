/**
 * The debugger: pauses, resumes, edits made while paused, breakpoints (docs/debugger.md).
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */
import type {
  ApprovalRule,
  Breakpoint,
  DebugActor,
  EditRecord,
  PausePoint,
  PauseReason,
  ResumeMode,
} from '../domain/debugger';
import type { ToolCall } from '../domain/message';

/** The run stopped at a safe point (debugger): why, and what waits to run. */
export interface RunPausedEvent {
  type: 'run.paused';
  agent: string;
  step: number;
  point: PausePoint;
  reasons: PauseReason[];
  /** at `before_tools`: the calls the model proposed, none run yet */
  calls?: ToolCall[];
  /** at `before_tools`: ids of calls that need approval (approval mode) */
  awaitingApproval?: string[];
  /** at `model_error`: what failed */
  error?: string;
}
export interface RunResumedEvent {
  type: 'run.resumed';
  agent: string;
  step: number;
  mode: ResumeMode;
  by: DebugActor;
  pausedMs: number;
}
/** A change the user made while the run was paused: who, what, before and after. */
export interface RunEditedEvent {
  type: 'run.edited';
  agent: string;
  step: number;
  by: DebugActor;
  edit: EditRecord;
}
/** The run's breakpoints and approval list, whenever they change (and at the start). */
export interface BreakpointsChangedEvent {
  type: 'breakpoints.changed';
  breakpoints: Breakpoint[];
  approvals: ApprovalRule[];
  by: DebugActor | 'config';
}
