/**
 * Folds RunEvents into a run's TimelineModel, incrementally: a batch costs time in
 * proportion to the batch (plus one copy of the item array's pointers), never to the
 * whole history, and items that did not change keep their identity so rows that show
 * them are not re-rendered. Events already applied (seq <= lastSeq) are skipped, so a
 * snapshot followed by overlapping pushes never duplicates anything.
 */
import type { RunEvent, RunEventOf } from '@shared/events';
import { matchDuplicate } from './duplicate-index';
import { key } from './timeline-draft';
import { McpDraft } from './mcp-draft';
import { callRequested, callRetried, callSettled } from './pending-calls';
import type { DuplicateInfo, MessageItem, TimelineModel } from './types';
import { requestExtras, withOutput } from './request-and-output';
import { answeredTime, trackStepTime } from './step-waits';
import { replayMarker } from './replay-text';
import { sandboxCause } from './run-error-text';
import { scoreItem } from './score-item';

export function applyTimelineEvents(
  model: TimelineModel,
  events: readonly RunEvent[],
): TimelineModel {
  let draft: Draft | null = null;
  for (const event of events) {
    if (event.seq <= (draft?.m.lastSeq ?? model.lastSeq)) continue;
    draft ??= new Draft(model);
    draft.apply(event);
  }
  return draft ? draft.m : model;
}

/**
 * The event handlers; the copy-on-write mechanics are in TimelineDraft, what must agree
 * with the run's outcome (states, tool verdicts, repeats) in OutcomeDraft, the debugger's
 * pauses and edits in DebugDraft.
 */
class Draft extends McpDraft {
  private readonly stepUpdater = this.updateStep.bind(this);

  /** Whether a model call of this agent now is one its running tool makes. */
  private isToolsCall(agent: string): boolean {
    return (this.m.waitState.toolsRunning[agent] ?? 0) > 0;
  }

  apply(e: RunEvent): void {
    this.m.lastSeq = e.seq;
    this.m.eventCount += 1;
    trackStepTime(this.m, e, this.stepUpdater);
    if (this.applyDebug(e)) return;
    switch (e.type) {
      case 'run.started':
        this.m.lastAgent = e.agent;
        this.runStarted(e);
        this.push({
          kind: 'run',
          id: e.seq,
          ts: e.ts,
          agent: e.agent,
          step: 0,
          stepId: 0,
          task: e.task,
          model: e.model,
          maxSteps: e.maxSteps,
          ...(e.flow ? { flow: e.flow } : {}),
          ...(e.prompt ? { prompt: e.prompt } : {}),
          ...(e.agentDefinition ? { agentDefinition: e.agentDefinition } : {}),
        });
        return;
      case 'state.changed':
        return this.stateChanged(e);
      case 'step.started':
        return this.stepStarted(e);
      case 'step.finished':
        // a failed call ends its step: nothing waits any more
        if (this.m.pendingCalls[e.agent]?.step === e.step)
          callSettled(this.m.pendingCalls, e.agent);
        this.updateStep(e.agent, e.step, () => ({
          isFinished: true,
          durationMs: e.durationMs,
        }));
        return;
      case 'memory.appended':
        return this.memoryAppended(e);
      case 'memory.truncated':
        return this.memoryTruncated(e);
      case 'llm.requested': {
        callRequested(this.m.pendingCalls, e);
        if (e.sampledBy !== undefined) return this.samplingRequested(e, e.sampledBy);
        // A tool's own model call (extract_content) is shown as waiting like any call, but
        // the step's request stays the agent's, and so does the agent's system prompt.
        if (this.isToolsCall(e.agent)) return;
        if (e.system !== undefined) this.m.systemPrompts[e.agent] = e.system;
        const system = this.m.systemPrompts[e.agent];
        this.updateStep(e.agent, e.step, () => ({
          request: {
            seq: e.seq,
            model: e.model,
            messageCount: e.messageCount,
            inputTokens: e.inputTokens,
            ...(system !== undefined ? { system } : {}),
            ...(e.nudge !== undefined ? { nudge: e.nudge } : {}),
            ...requestExtras(e),
          },
        }));
        if (e.toolsHash !== undefined && e.tools) this.m.requestTools[e.toolsHash] = e.tools;
        return;
      }
      case 'llm.delta':
        callSettled(this.m.pendingCalls, e.agent);
        return this.delta(e);
      case 'llm.responded':
        callSettled(this.m.pendingCalls, e.agent);
        if (this.samplingResponded(e)) return;
        // (a tool's own call: its answer is not the reply of the agent's next message)
        if (!this.isToolsCall(e.agent)) {
          // the call's backoff is read before the step's timing takes it (answeredTime)
          const waitedMs = (e.queuedMs ?? 0) + (this.m.waitState.callBackoffMs[e.agent] ?? 0);
          this.m.pendingResponse[e.agent] = {
            step: e.step,
            seq: e.seq,
            reply: { content: e.content, toolCalls: e.toolCalls },
            info: {
              model: e.model,
              usage: e.usage,
              durationMs: e.durationMs,
              ...(waitedMs > 0 ? { waitedMs } : {}),
              finishReason: e.finishReason,
            },
          };
        }
        this.updateStep(e.agent, e.step, (s) => ({
          usage: {
            prompt: (s.usage?.prompt ?? 0) + e.usage.prompt,
            completion: (s.usage?.completion ?? 0) + e.usage.completion,
          },
          ...(e.usageSource ? { usageSource: e.usageSource } : {}),
          ...answeredTime(this.m.waitState, e, s),
        }));
        return;
      case 'llm.retried': {
        // The retried attempt streams afresh; the partial text of the failed one stays visible.
        delete this.m.streams[e.agent];
        callRetried(this.m.pendingCalls, e);
        const cause = e.status === null ? 'a network error' : `HTTP ${e.status}`;
        const wait = (e.delayMs / 1000).toFixed(1);
        this.marker(
          e,
          e.agent,
          'retry',
          `Retry ${e.attempt} after ${cause} (waited ${wait} s): ${e.error}`,
          'warn',
        );
        return;
      }
      case 'tool.started':
        this.replyBeforeTool(e);
        this.m.index.toolNames.add(e.name);
        this.m.index.tools.set(e.toolCallId, this.items.length);
        this.m.runningTool = this.items.length;
        this.push({
          kind: 'tool',
          id: e.seq,
          ts: e.ts,
          ...this.place(e.agent),
          toolCallId: e.toolCallId,
          name: e.name,
          args: e.args,
          status: 'running',
        });
        return;
      case 'tool.finished':
        return this.toolFinished(e);
      case 'tool.output': {
        const position = this.m.index.tools.get(e.toolCallId);
        const tool = position === undefined ? undefined : this.items[position];
        if (position === undefined || tool?.kind !== 'tool') return;
        this.patch(position, tool, { live: withOutput(tool.live, e) });
        return;
      }
      case 'tool.progress': {
        const position = this.m.index.tools.get(e.toolCallId);
        const tool = position === undefined ? undefined : this.items[position];
        if (position === undefined || tool?.kind !== 'tool') return;
        this.patch(position, tool, {
          progress: {
            progress: e.progress,
            ...(e.total !== undefined ? { total: e.total } : {}),
            ...(e.message !== undefined ? { message: e.message } : {}),
          },
        });
        return;
      }
      case 'stuck.detected':
        return this.stuck(e);
      case 'sandbox.changed':
        return this.sandboxChanged(e);
      case 'plan.updated':
        return this.planUpdated(e);
      case 'checkpoint.limited':
        // a snapshot limit at this step boundary: what a fork from here misses, or that
        // the run's snapshots stopped (issue 24)
        return this.marker(e, e.agent, 'sandbox', e.message, 'warn');
      case 'replay.diverged':
        return this.marker(e, e.agent, 'replay', ...replayMarker(e));
      case 'human.requested':
        this.m.index.human.set(e.toolCallId, this.items.length);
        this.m.openQuestions.push(e.toolCallId);
        this.push({
          kind: 'human',
          id: e.seq,
          ts: e.ts,
          ...this.place(this.m.lastAgent),
          toolCallId: e.toolCallId,
          question: e.question,
          ...(e.form ? { form: e.form } : {}),
        });
        return;
      case 'mcp.log':
        return this.mcpLog(e);
      case 'score.recorded':
        return this.push(scoreItem(e, this.m.runAgent, this.items));
      case 'human.answered': {
        const position = this.m.index.human.get(e.toolCallId);
        const item = position === undefined ? undefined : this.items[position];
        if (position !== undefined && item?.kind === 'human') {
          this.patch(position, item, { answer: e.answer });
        }
        this.m.openQuestions = this.m.openQuestions.filter((id) => id !== e.toolCallId);
        return;
      }
      case 'run.finished': {
        delete this.m.runningTool;
        this.m.streams = {};
        this.m.pendingCalls = {};
        this.m.openQuestions = [];
        const verdict = this.runFinished(e);
        const cause = e.error ? sandboxCause(e.error, this.m.sandboxFailure) : undefined;
        this.push({
          kind: 'finished',
          id: e.seq,
          ts: e.ts,
          ...this.place(this.m.lastAgent),
          outcome: e.outcome,
          state: e.state,
          steps: e.steps,
          usage: e.usage,
          ...(e.error !== undefined ? { error: e.error } : {}),
          ...(cause !== undefined ? { sandboxCause: cause } : {}),
          ...(e.terminateStatus !== undefined ? { terminateStatus: e.terminateStatus } : {}),
          verdict,
        });
        return;
      }
    }
  }

  private stepStarted(e: RunEventOf<'step.started'>): void {
    this.m.lastAgent = e.agent;
    const position = this.items.length;
    this.m.index.steps.set(key(e.agent, e.step), position);
    this.m.current[e.agent] = { step: e.step, position };
    // A stuck hit leaves a nudge for the agent's next step only.
    const stuckPosition = this.m.pendingNudge[e.agent];
    const stuck = stuckPosition === undefined ? undefined : this.items[stuckPosition];
    delete this.m.pendingNudge[e.agent];
    const isNudged = stuckPosition !== undefined && stuck?.kind === 'stuck';
    this.push({
      kind: 'step',
      id: e.seq,
      ts: e.ts,
      agent: e.agent,
      step: e.step,
      stepId: e.seq,
      maxSteps: e.maxSteps,
      isFinished: false,
      hasError: false,
      duplicateCount: 0,
      isStuck: false,
      ...(isNudged ? { nudgedBy: stuck.id } : {}),
    });
    if (isNudged) this.patch(stuckPosition, stuck, { nudge: { step: e.step, stepId: e.seq } });
  }

  private memoryAppended(e: RunEventOf<'memory.appended'>): void {
    this.m.lastAgent = e.agent;
    const { message } = e;
    const memoryKey = key(e.agent, e.index);
    if (message.role === 'tool' && message.tool_call_id) {
      const position = this.m.index.tools.get(message.tool_call_id);
      const tool = position === undefined ? undefined : this.items[position];
      if (position !== undefined && tool?.kind === 'tool' && tool.memoryIndex === undefined) {
        // The tool card shows what the model observed; no second row for the same call.
        this.patch(position, tool, { memoryIndex: e.index, observation: message.content ?? '' });
        this.m.index.memory.set(memoryKey, position);
        return;
      }
    }
    const place = this.place(e.agent);
    let item: MessageItem = {
      kind: 'message',
      id: e.seq,
      ts: e.ts,
      ...place,
      memoryIndex: e.index,
      role: message.role,
      content: message.content,
      ...(message.tool_calls ? { toolCalls: message.tool_calls } : {}),
      ...(message.tool_call_id ? { toolCallId: message.tool_call_id } : {}),
      ...(message.name ? { name: message.name } : {}),
      ...(message.imageMimeType ? { imageMimeType: message.imageMimeType } : {}),
      ...(message.image ? { image: message.image } : {}),
      repeatedLater: 0,
      wasStreamed: false,
    };
    let position = this.items.length;
    this.markRepeatedPrompt(e.agent, item);
    if (message.role === 'assistant') {
      const streamPosition = this.m.streams[e.agent];
      const stream = streamPosition === undefined ? undefined : this.items[streamPosition];
      if (streamPosition !== undefined && stream?.kind === 'stream' && stream.step === place.step) {
        // The message takes the place (and id) of its stream: the row does not jump.
        position = streamPosition;
        item = { ...item, id: stream.id, wasStreamed: true };
      }
      delete this.m.streams[e.agent];
      const pending = this.m.pendingResponse[e.agent];
      if (pending && pending.step === place.step) {
        item.response = pending.info;
        delete this.m.pendingResponse[e.agent];
      }
      const duplicate = this.detectDuplicate(e.agent, item, position);
      if (duplicate) {
        item.duplicate = duplicate;
        this.updateStep(e.agent, place.step, (s) => ({
          duplicateCount: s.duplicateCount + 1,
        }));
      }
    }
    this.m.index.memory.set(memoryKey, position);
    if (position === this.items.length) this.push(item);
    else this.replace(position, item);
  }

  /** Duplicate info for an assistant response; marks the first occurrence(s) as repeated. */
  private detectDuplicate(
    agent: string,
    item: MessageItem,
    position: number,
  ): DuplicateInfo | undefined {
    const match = matchDuplicate(this.m.index, agent, item, position);
    if (!match) return undefined;
    for (const first of match.firstPositions) this.markRepeated(first);
    return {
      kind: match.kind,
      of: match.of,
      ofItems: match.ofPositions.map((p) => this.items[p]?.id ?? 0),
      occurrence: match.occurrence,
    };
  }

  private markRepeated(position: number): void {
    const item = this.items[position];
    if (item?.kind === 'message')
      this.patch(position, item, { repeatedLater: item.repeatedLater + 1 });
  }

  private memoryTruncated(e: RunEventOf<'memory.truncated'>): void {
    const droppedItems: number[] = [];
    for (const index of e.dropped) {
      const position = this.m.index.memory.get(key(e.agent, index));
      const item = position === undefined ? undefined : this.items[position];
      if (position === undefined || !item) continue;
      droppedItems.push(item.id);
      if (item.kind === 'message' || item.kind === 'tool') {
        this.patch(position, item, { droppedAtSeq: e.seq });
      }
    }
    const count = e.dropped.length;
    const text = `Context window (${e.window} messages): ${count} older message${count === 1 ? '' : 's'} no longer sent to the model`;
    this.push({
      kind: 'marker',
      id: e.seq,
      ts: e.ts,
      ...this.place(e.agent),
      marker: 'truncated',
      text,
      tone: 'warn',
      dropped: e.dropped,
      droppedItems,
    });
  }

  private delta(e: RunEventOf<'llm.delta'>): void {
    const position = this.m.streams[e.agent];
    const stream = position === undefined ? undefined : this.items[position];
    if (position !== undefined && stream?.kind === 'stream' && stream.step === e.step) {
      this.patch(position, stream, { text: stream.text + e.text });
      return;
    }
    this.m.streams[e.agent] = this.items.length;
    this.push({ kind: 'stream', id: e.seq, ts: e.ts, ...this.place(e.agent), text: e.text });
  }

  private toolFinished(e: RunEventOf<'tool.finished'>): void {
    const position = this.m.index.tools.get(e.toolCallId);
    const tool = position === undefined ? undefined : this.items[position];
    if (position === undefined || tool?.kind !== 'tool') return;
    if (this.m.runningTool === position) delete this.m.runningTool;
    const changes = this.toolOutcome(e, tool);
    this.patch(position, tool, changes);
    if (changes.status === 'error')
      this.updateStep(e.agent, e.step, (s) => (s.hasError ? null : { hasError: true }));
  }

  private stuck(e: RunEventOf<'stuck.detected'>): void {
    const duplicateItems: number[] = [];
    for (const index of e.duplicateOf) {
      const position = this.m.index.memory.get(key(e.agent, index));
      const item = position === undefined ? undefined : this.items[position];
      if (item) duplicateItems.push(item.id);
    }
    this.m.pendingNudge[e.agent] = this.items.length;
    this.updateStep(e.agent, e.step, () => ({ isStuck: true }));
    this.push({
      kind: 'stuck',
      id: e.seq,
      ts: e.ts,
      ...this.place(e.agent),
      stuckKind: e.kind,
      count: e.count,
      duplicateOf: e.duplicateOf,
      duplicateItems,
    });
  }
}
