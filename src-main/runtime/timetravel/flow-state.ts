/**
 * A PlanningFlow's state at a run-wide step boundary, from its history: the plan as the
 * last `plan.updated` before it had it, the planner's memory (agent-state.ts), and the
 * steps used. A plan step that was in progress there runs again from its start in the
 * fork (executors are fresh per plan step; their files are the step's snapshot).
 */
import type { RunEvent } from '@shared/events';
import type { FlowResumePoint } from '../flow/planning-flow';
import { PLANNER_AGENT } from '../flow/planner';
import type { Plan } from '../tools/planning/plan';
import { rebuildAgentState } from './agent-state';

export function rebuildFlowState(
  events: readonly RunEvent[],
  seq: number,
  stepsUsed: number,
  message?: string,
): FlowResumePoint {
  let plan: Plan | undefined;
  for (const event of events) {
    if (event.seq > seq) break;
    if (event.type !== 'plan.updated') continue;
    plan = {
      id: event.planId,
      title: event.title,
      steps: event.steps.map((s) => s.text),
      statuses: event.steps.map((s) => s.status),
      notes: event.steps.map((s) => s.notes ?? ''),
    };
  }
  if (!plan) throw new Error('The run had no plan yet at that step');
  const planner = rebuildAgentState(events, PLANNER_AGENT, seq);
  return {
    plan,
    planner: {
      entries: planner.entries,
      pinnedIndex: planner.pinnedIndex,
      nextIndex: planner.nextIndex,
    },
    stepsUsed,
    ...(message ? { message } : {}),
  };
}
