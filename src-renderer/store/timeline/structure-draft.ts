/**
 * The timeline's structure beyond steps: a flow's plan steps as headers that their
 * executors' steps nest under, one plan summary row per real change (an update that
 * only starts the next step adds none), the model's reply shown before the tool calls
 * it made when the agent stores something else in memory (the planner stores the plan),
 * and user prompts that repeat an earlier one word for word marked so they fold.
 */
import type { RunEventOf } from '@shared/events';
import { DebugDraft } from './debug-draft';
import { key } from './timeline-draft';
import type { MessageItem, TimelineItem } from './types';

export class StructureDraft extends DebugDraft {
  /** Every new item joins the plan step in progress. */
  protected override push(item: TimelineItem): void {
    const open = this.m.planStep;
    const header = open ? this.items[open.position] : undefined;
    if (header && header.id !== item.id) item.planStepId = header.id;
    super.push(item);
  }

  protected planUpdated(e: RunEventOf<'plan.updated'>): void {
    const previous = this.m.plan;
    const stepItems = previous?.planId === e.planId ? { ...previous.stepItems } : {};
    this.m.plan = {
      planId: e.planId,
      title: e.title,
      steps: e.steps,
      updatedSeq: e.seq,
      stepItems,
    };
    // the step in progress ended (or the plan was replaced): close its group
    const open = this.m.planStep;
    if (open) {
      const header = this.items[open.position];
      const status = e.steps[open.index]?.status;
      if (header?.kind === 'marker' && header.planStep && status && status !== 'in_progress') {
        this.patch(open.position, header, { planStep: { ...header.planStep, status } });
      }
      if (status !== 'in_progress') delete this.m.planStep;
    }
    const done = e.steps.filter((s) => s.status === 'completed').length;
    const text = `Plan “${e.title}”: ${done} of ${e.steps.length} steps completed`;
    const started = e.steps.findIndex(
      (s, i) => s.status === 'in_progress' && previous?.steps[i]?.status !== 'in_progress',
    );
    const isStart = started >= 0 && this.m.planStep?.index !== started;
    // one row per event: a step that starts gets its header (which says where the plan is)
    if (text !== this.m.lastPlanText && !isStart)
      this.marker(e, this.m.lastAgent, 'plan', text, 'info');
    this.m.lastPlanText = text;
    if (!isStart) return;
    const step = e.steps[started]!;
    delete this.m.planStep;
    this.push({
      kind: 'marker',
      id: e.seq,
      ts: e.ts,
      agent: step.agent ?? this.m.lastAgent,
      step: 0,
      stepId: 0,
      marker: 'plan',
      text: `Plan step ${started + 1} of ${e.steps.length}: ${step.text} (${done} of ${e.steps.length} completed)`,
      tone: 'info',
      planStep: {
        index: started,
        text: step.text,
        status: step.status,
        ...(step.agent ? { agent: step.agent } : {}),
      },
    });
    this.m.planStep = { index: started, position: this.items.length - 1 };
    stepItems[started] = e.seq;
  }

  /**
   * A tool call whose reply is not in memory (yet): the reply is shown first, so a
   * result never comes before the call that asked for it.
   */
  protected replyBeforeTool(e: RunEventOf<'tool.started'>): void {
    const pending = this.m.pendingResponse[e.agent];
    if (!pending || this.m.streams[e.agent] !== undefined) return;
    if (!pending.reply.toolCalls.some((c) => c.id === e.toolCallId)) return;
    if (this.m.index.tools.has(e.toolCallId)) return;
    delete this.m.pendingResponse[e.agent];
    // the reply's own event (llm.responded) names the row, so ids stay whole and ascending
    if ((this.items.at(-1)?.id ?? 0) >= pending.seq) return;
    this.push({
      kind: 'message',
      id: pending.seq,
      ts: e.ts,
      ...this.place(e.agent),
      memoryIndex: -1,
      role: 'assistant',
      content: pending.reply.content,
      toolCalls: pending.reply.toolCalls,
      response: pending.info,
      repeatedLater: 0,
      wasStreamed: false,
      isReplyOnly: true,
    });
  }

  /** Marks a user prompt that repeats an earlier one of the same agent. */
  protected markRepeatedPrompt(agent: string, item: MessageItem): void {
    if (item.role !== 'user' || !item.content) return;
    const k = key(agent, item.content);
    const first = this.m.index.prompts.get(k);
    if (first === undefined) this.m.index.prompts.set(k, item.id);
    else if (first < item.id) item.repeatOf = first;
  }
}
