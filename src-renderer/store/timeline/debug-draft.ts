/**
 * The debugger's events in the timeline (`run.paused`, `run.resumed`, `run.edited`,
 * `breakpoints.changed`): each becomes a row where it happened, an edited message or
 * observation shows its new text (and keeps the old one, so "context at step" can show
 * what each request really carried), and the run's debug view (where it is paused, the
 * calls as edited so far, the breakpoints) is derived from the same stream, so a UI
 * that reconnects or reopens the run from history finds the same state.
 */
import type { DebugActor, EditRecord, PausePoint } from '@shared/domain/debugger';
import { describeEdit, describePauseReason, formatBreakpoint } from '@shared/domain/debugger';
import type { RunEvent, RunEventOf } from '@shared/events';
import { key } from './timeline-draft';
import { OutcomeDraft } from './outcome-draft';
import type { RunDebugView } from './types';

const EMPTY: RunDebugView = {
  paused: null,
  calls: [],
  decisions: {},
  hasTypedReply: false,
  breakpoints: [],
  approvals: [],
};

const POINT_TEXT = {
  before_model: 'before the model call',
  before_tools: 'before the tool calls',
  model_error: 'after a failed model call',
  planner: "before the planner's call",
  sampling: 'before a model call an MCP server asked for',
} as const;

const who = (by: DebugActor | 'config') =>
  by === 'ui' ? 'You' : by === 'terminal' ? 'The terminal' : 'config.toml';

/** Between OutcomeDraft and the handlers: the debugger's rows and pause state. */
export class DebugDraft extends OutcomeDraft {
  /** Applies a debugger event; false for every other event (run.finished is also seen here). */
  protected applyDebug(e: RunEvent): boolean {
    switch (e.type) {
      case 'run.paused':
        this.paused(e);
        return true;
      case 'run.resumed': {
        this.setDebug({ paused: null, calls: [], decisions: {}, hasTypedReply: false });
        const step =
          e.mode === 'continue'
            ? ''
            : e.mode === 'model'
              ? ' (step: the model call)'
              : ' (step: one cycle)';
        this.debugRow(
          e,
          e.agent,
          'resumed',
          `Resumed${step} after ${(e.pausedMs / 1000).toFixed(1)} s`,
          e.by,
        );
        return true;
      }
      case 'run.edited':
        this.edited(e);
        return true;
      case 'breakpoints.changed': {
        this.setDebug({ breakpoints: e.breakpoints, approvals: e.approvals });
        const list = e.breakpoints
          .map((b) => `${b.id} ${formatBreakpoint(b.condition)}`)
          .join(', ');
        const approvals = e.approvals.map((r) => (r.agent ? `${r.tool} (${r.agent})` : r.tool));
        this.debugRow(
          e,
          this.m.lastAgent,
          'breakpoints',
          `Breakpoints: ${list || 'none'}${approvals.length > 0 ? ` · approval before ${approvals.join(', ')}` : ''}`,
          e.by,
        );
        return true;
      }
      case 'run.finished':
        // A stopped run is no longer paused.
        if (this.m.debug?.paused) this.setDebug({ paused: null, calls: [], decisions: {} });
        return false;
      default:
        return false;
    }
  }

  private paused(e: RunEventOf<'run.paused'>): void {
    this.setDebug({
      paused: e,
      calls: e.calls ?? [],
      decisions: {},
      hasTypedReply: false,
    });
    // The streamed reply is complete: it waits for the user's decisions, not for the model.
    const streamPosition = this.m.streams[e.agent];
    const stream = streamPosition === undefined ? undefined : this.items[streamPosition];
    if (streamPosition !== undefined && stream?.kind === 'stream')
      this.patch(streamPosition, stream, { isHeld: true });
    const why = e.reasons.map(describePauseReason).join('; ');
    this.debugRow(
      e,
      e.agent,
      'paused',
      `Paused ${POINT_TEXT[e.point]}: ${why}`,
      undefined,
      e.point,
    );
  }

  private edited(e: RunEventOf<'run.edited'>): void {
    const edit = e.edit;
    const view = this.m.debug ?? EMPTY;
    const decisions = { ...view.decisions };
    let calls = view.calls;
    switch (edit.kind) {
      case 'approve_call':
        decisions[edit.toolCallId] = 'approved';
        break;
      case 'skip_call':
        decisions[edit.toolCallId] = 'skipped';
        break;
      case 'edit_call':
        decisions[edit.toolCallId] = 'edited';
        calls = calls.map((c) =>
          c.id === edit.toolCallId
            ? { ...c, function: { ...c.function, arguments: edit.after } }
            : c,
        );
        break;
      case 'add_call':
        decisions[edit.toolCallId] = 'added';
        calls = [
          ...calls,
          {
            id: edit.toolCallId,
            type: 'function',
            function: { name: edit.name, arguments: edit.arguments },
          },
        ];
        break;
      case 'edit_message':
        this.editContent(e.agent, edit, e.seq);
        break;
      default:
        break;
    }
    this.setDebug({
      decisions,
      calls,
      hasTypedReply: view.hasTypedReply || edit.kind === 'provide_reply',
    });
    this.debugRow(
      e,
      e.agent,
      'edited',
      `${who(e.by)}: ${describeEdit(edit)}`,
      e.by,
      undefined,
      edit,
    );
  }

  /** The stored message (or tool observation) shows the new text; the old one is kept. */
  private editContent(
    agent: string,
    edit: Extract<EditRecord, { kind: 'edit_message' }>,
    seq: number,
  ) {
    const position = this.m.index.memory.get(key(agent, edit.index));
    const item = position === undefined ? undefined : this.items[position];
    if (position === undefined || !item) return;
    if (item.kind === 'message') {
      this.patch(position, item, {
        content: edit.after,
        edits: [...(item.edits ?? []), { seq, before: item.content }],
      });
    } else if (item.kind === 'tool') {
      this.patch(position, item, {
        observation: edit.after,
        edits: [...(item.edits ?? []), { seq, before: item.observation ?? null }],
      });
    }
  }

  private setDebug(patch: Partial<RunDebugView>): void {
    this.m.debug = { ...(this.m.debug ?? EMPTY), ...patch };
  }

  private debugRow(
    e: RunEvent,
    agent: string,
    action: 'paused' | 'resumed' | 'edited' | 'breakpoints',
    text: string,
    by?: DebugActor | 'config',
    point?: PausePoint,
    edit?: EditRecord,
  ): void {
    this.push({
      kind: 'debug',
      id: e.seq,
      ts: e.ts,
      ...this.place(agent),
      action,
      text,
      ...(by ? { by } : {}),
      ...(point ? { point } : {}),
      ...(edit ? { edit } : {}),
    });
  }
}
