/**
 * The seam between the agent loop and the debugger. The loop awaits `gate()` at its safe
 * points (before a step's model call, between the model's reply and its tool calls,
 * before a planner call); when nothing asks for a pause the gate answers `null` at once,
 * so an undisturbed run pays one cheap check per point. While paused, edits reach the
 * loop's own state through the `PauseSession` the loop handed to the gate.
 */
import type { ToolCall } from '@shared/domain/message';
import type { DebugActor, DebugEdit, EditRecord, PausePoint } from '@shared/domain/debugger';

export interface GateRequest {
  /** the agent whose loop is at the safe point */
  agent: string;
  point: PausePoint;
  signal: AbortSignal;
  /** at `before_tools`: the calls the model proposed */
  calls?: readonly ToolCall[];
  /** at `model_error`: what failed */
  error?: string;
  /** applies the edits that belong to this point; absent where nothing can be edited */
  session?: PauseSession;
}

/** What the loop offers while it is paused at one point. */
export interface PauseSession {
  /** Applies one edit (throws DebugError when it does not apply); says what it did. */
  apply(edit: DebugEdit): { record: EditRecord; toolCallId?: string; index?: number };
  /**
   * The run goes on: the session records what the user's resume decided implicitly
   * (calls awaiting approval are approved by resuming) and returns those records.
   */
  finish?(awaitingApproval: readonly string[]): EditRecord[];
}

export interface DebugGate {
  /** Resolves when the run may go on (rejects when it is stopped); null: no pause here. */
  gate(request: GateRequest): Promise<void> | null;
  /** A model call failed: pause if a breakpoint asks for it (then the loop retries), else null. */
  modelError(request: GateRequest & { error: string }): Promise<void> | null;
}

/** How a change of model profile or temperature reaches one agent's model client. */
export interface ModelSwitch {
  current(): { model: string; profile: string; temperature: number };
  /** Rebuilds the client; throws DebugError for an unknown profile or a bad temperature. */
  change(to: { profile?: string; temperature?: number }): {
    model: string;
    profile: string;
    temperature: number;
  };
}

export type { DebugActor };
