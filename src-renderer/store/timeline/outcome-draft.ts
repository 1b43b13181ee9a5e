/**
 * The parts of the timeline that must never contradict the run's outcome
 * (docs/run-outcome.md):
 *
 * - state markers: the run agent's transitions are the run's; a flow's executors are
 *   labelled as such; the terminal transition names the outcome, so a stopped run does
 *   not read "RUNNING → FINISHED" alone;
 * - tool calls: a call whose command exited non-zero is an error, never "ok";
 * - repeats: a sandbox that cannot start is one row (×N, with a link to each call it
 *   failed) and one banner; the same tool error again is one line pointing at the first.
 */
import type { RunEventOf } from '@shared/events';
import { isToolFailure, runVerdict } from '@shared/run-outcome';
import { TimelineDraft } from './timeline-draft';
import type { MarkerItem, ToolItem } from './types';

/** Errors longer than this are compared by their head (a long one differs only at the end). */
const ERROR_KEY_CHARS = 2000;

export function errorKey(error: string): string {
  return error.replace(/\s+/g, ' ').trim().slice(0, ERROR_KEY_CHARS);
}

/**
 * A tool error caused by the sandbox failure: its message, maybe followed by what the run
 * does about it (the runtime adds "…cannot be used in this run" or "The run ends here: …",
 * tools/sandbox/sandbox-outage.ts), which the banner and the run's error say.
 */
export function isCausedBy(toolError: string, sandboxError: string): boolean {
  const cause = errorKey(sandboxError);
  return cause !== '' && errorKey(toolError).startsWith(cause);
}

/** The first sentence of a long message, for one-line rows. */
export function firstSentence(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

export class OutcomeDraft extends TimelineDraft {
  protected runStarted(e: RunEventOf<'run.started'>): void {
    this.m.runAgent = e.agent;
  }

  protected stateChanged(e: RunEventOf<'state.changed'>): void {
    this.m.lastAgent = e.agent;
    const isRunAgent = e.agent === this.m.runAgent || this.m.runAgent === '';
    const transition = `${e.from} → ${e.to}`;
    const text = isRunAgent ? transition : `${e.agent} (plan step executor): ${transition}`;
    if (isRunAgent) this.m.runStateMarker = this.items.length;
    this.marker(e, e.agent, 'state', text, e.to === 'ERROR' ? 'error' : 'info');
  }

  protected sandboxChanged(e: RunEventOf<'sandbox.changed'>): void {
    const previous = this.m.sandbox;
    this.m.sandbox = {
      status: e.status,
      image: e.image,
      ...(e.containerId ? { containerId: e.containerId } : {}),
      ...(e.error ? { error: e.error } : {}),
      ...(e.reason ? { reason: e.reason } : {}),
      ...(e.progress ? { progress: e.progress } : {}),
    };
    // busy/idle flip on every command: they update the status, not the timeline.
    if (e.status === 'busy' || e.status === 'idle') return;
    const failure = this.m.sandboxFailure;
    if (e.status === 'creating') {
      // A retry after a failure is folded into the failure's row (or its `ready` shows);
      // pull progress updates the creating row in place.
      if (failure && !failure.isResolved) return;
    }
    if (e.status === 'ready' && failure && !failure.isResolved) {
      this.m.sandboxFailure = { ...failure, isResolved: true };
    }
    if (this.noteInRunningTool(e)) return;
    if (e.status === 'creating') {
      const row = previous?.status === 'creating' ? this.sandboxRow() : undefined;
      if (row) {
        this.patch(row.position, row.marker, { text: sandboxText(e) });
        return;
      }
    }
    if (e.status === 'failed' && e.error) {
      if (failure && !failure.isResolved && errorKey(failure.error) === errorKey(e.error)) return;
      const text = failureText(e.image, e.error, 0);
      // The row that said "creating" becomes the failure: one row per attempt, not two.
      const creating = previous?.status === 'creating' ? this.sandboxRow() : undefined;
      if (creating) this.patch(creating.position, creating.marker, { text, tone: 'error' });
      else {
        this.m.sandboxMarker = this.items.length;
        this.marker(e, this.m.lastAgent, 'sandbox', text, 'error');
      }
      this.m.sandboxFailure = {
        error: e.error,
        ...(e.reason ? { reason: e.reason } : {}),
        image: e.image,
        markerId: creating?.marker.id ?? e.seq,
        toolIds: [],
        isResolved: false,
      };
      return;
    }
    this.m.sandboxMarker = this.items.length;
    this.marker(e, this.m.lastAgent, 'sandbox', sandboxText(e), 'info');
  }

  /**
   * A sandbox queued for, created or made ready while a tool call runs is the one that
   * call waits for (the runtime emits these between its tool.started and tool.finished):
   * its card says so above its result. As a row it came after the card, so after the
   * result it was needed for (issue 25). A failure stays a row of its own (one for all
   * the calls it failed, with the banner); the card of such a call says it was not run.
   */
  private noteInRunningTool(e: RunEventOf<'sandbox.changed'>): boolean {
    const position = this.m.runningTool;
    const tool = position === undefined ? undefined : this.items[position];
    if (position === undefined || tool?.kind !== 'tool' || tool.status !== 'running') return false;
    if (e.status === 'failed') {
      // the cause is said once, on the failure's row and in the banner
      if (tool.sandbox) {
        const text = `Sandbox failed to start (${e.image})`;
        this.patch(position, tool, { sandbox: { status: e.status, text } });
      }
      return false;
    }
    if (e.status !== 'queued' && e.status !== 'creating' && e.status !== 'ready') return false;
    this.patch(position, tool, { sandbox: { status: e.status, text: sandboxText(e) } });
    // a later status or failure must not update an older row in place
    delete this.m.sandboxMarker;
    return true;
  }

  /** The changes a finished tool call makes to its card (and to earlier cards it repeats). */
  protected toolOutcome(e: RunEventOf<'tool.finished'>, tool: ToolItem): Partial<ToolItem> {
    const failed = isToolFailure(e);
    const changes: Partial<ToolItem> = {
      status: e.skipped === true ? 'skipped' : failed ? 'error' : 'ok',
      output: e.output,
      durationMs: e.durationMs,
      ...(e.error !== undefined ? { error: e.error } : {}),
      ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
      ...(e.structured !== undefined ? { structured: e.structured } : {}),
    };
    if (!failed) return changes;
    this.m.toolErrors += 1;
    if (e.error === undefined) return changes;
    const failure = this.m.sandboxFailure;
    if (failure && !failure.isResolved && isCausedBy(e.error, failure.error)) {
      changes.isSandboxFailure = true;
      this.recordSandboxFailure(failure, tool.id);
    }
    const k = errorKey(e.error);
    const firstPosition = this.m.index.errors.get(k);
    const first = firstPosition === undefined ? undefined : this.items[firstPosition];
    if (firstPosition !== undefined && first?.kind === 'tool' && first.id !== tool.id) {
      changes.repeatOf = first.id;
      this.patch(firstPosition, first, { repeats: [...(first.repeats ?? []), tool.id] });
    } else if (firstPosition === undefined) {
      const position = this.m.index.tools.get(e.toolCallId);
      if (position !== undefined) this.m.index.errors.set(k, position);
    }
    return changes;
  }

  protected runFinished(e: RunEventOf<'run.finished'>) {
    const verdict = runVerdict({
      outcome: e.outcome,
      ...(e.terminateStatus !== undefined ? { terminateStatus: e.terminateStatus } : {}),
      health: { toolCalls: 0, toolErrors: this.m.toolErrors, stuck: 0, duplicates: 0, retries: 0 },
    });
    const position = this.m.runStateMarker;
    const marker = position === undefined ? undefined : this.items[position];
    if (position !== undefined && marker?.kind === 'marker' && verdict.kind !== 'finished') {
      // The failed calls are errors of their own; the marker only names the outcome.
      const tone: MarkerItem['tone'] =
        verdict.tone === 'bad'
          ? 'error'
          : verdict.kind === 'finished_with_errors'
            ? marker.tone
            : 'warn';
      this.patch(position, marker, { text: `${marker.text} (outcome: ${verdict.label})`, tone });
    }
    return verdict;
  }

  private recordSandboxFailure(failure: NonNullable<typeof this.m.sandboxFailure>, id: number) {
    const toolIds = [...failure.toolIds, id];
    this.m.sandboxFailure = { ...failure, toolIds };
    const position = this.m.sandboxMarker;
    const marker = position === undefined ? undefined : this.items[position];
    if (position !== undefined && marker?.kind === 'marker' && marker.id === failure.markerId) {
      this.patch(position, marker, {
        text: failureText(failure.image, failure.error, toolIds.length),
        occurrences: toolIds,
      });
    }
  }

  /** The latest sandbox row, to update in place. */
  private sandboxRow(): { position: number; marker: MarkerItem } | undefined {
    const position = this.m.sandboxMarker;
    const marker = position === undefined ? undefined : this.items[position];
    return position !== undefined && marker?.kind === 'marker' ? { position, marker } : undefined;
  }
}

function sandboxText(e: RunEventOf<'sandbox.changed'>): string {
  const container = e.containerId ? `, ${e.containerId.slice(0, 12)}` : '';
  const progress = e.progress ? `: ${e.progress}` : '';
  return `Sandbox ${e.status} (${e.image}${container})${progress}`;
}

function failureText(image: string, error: string, calls: number): string {
  const times = calls > 1 ? ` ×${calls}` : '';
  return `Sandbox failed to start (${image})${times}: ${firstSentence(error)}`;
}
