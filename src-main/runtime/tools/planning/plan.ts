/**
 * The plan model of OpenManus's planning tool: a title and steps, each with a status and
 * notes, rendered with the original's markers ([✓] completed, [→] in progress,
 * [!] blocked, [ ] not started) and progress line. Pure data + formatting.
 */
import type { PlanStep, PlanStepStatus } from '@shared/events';

export interface Plan {
  id: string;
  title: string;
  steps: string[];
  statuses: PlanStepStatus[];
  notes: string[];
}

export const STATUS_MARKERS: Record<PlanStepStatus, string> = {
  completed: '[✓]',
  in_progress: '[→]',
  blocked: '[!]',
  not_started: '[ ]',
};

/** Statuses that still need work: the flow picks the first step with one of these. */
export const ACTIVE_STATUSES: readonly PlanStepStatus[] = ['not_started', 'in_progress'];

export function createPlan(id: string, title: string, steps: string[]): Plan {
  return {
    id,
    title,
    steps: [...steps],
    statuses: steps.map(() => 'not_started'),
    notes: steps.map(() => ''),
  };
}

/**
 * New step texts for an existing plan. A step keeps its status and notes when its text is
 * unchanged at the same index (the original's rule).
 */
export function replaceSteps(plan: Plan, steps: string[]): Plan {
  const statuses: PlanStepStatus[] = [];
  const notes: string[] = [];
  steps.forEach((text, i) => {
    const same = plan.steps[i] === text;
    statuses.push(same ? plan.statuses[i]! : 'not_started');
    notes.push(same ? plan.notes[i]! : '');
  });
  return { ...plan, steps: [...steps], statuses, notes };
}

/** The executor tag of a step: `[swe] fix the bug` -> `swe` (any case; the original matched only uppercase). */
export function stepAgentTag(text: string): string | undefined {
  return /^\s*\[([A-Za-z][A-Za-z0-9_-]*)\]/.exec(text)?.[1]?.toLowerCase();
}

export function formatPlan(plan: Plan): string {
  const header = `Plan: ${plan.title} (ID: ${plan.id})`;
  const total = plan.steps.length;
  const count = (s: PlanStepStatus) => plan.statuses.filter((x) => x === s).length;
  const completed = count('completed');
  const percent = total > 0 ? ((completed / total) * 100).toFixed(1) : '0';
  const lines = [
    header,
    '='.repeat(header.length),
    '',
    `Progress: ${completed}/${total} steps completed (${percent}%)`,
    `Status: ${completed} completed, ${count('in_progress')} in progress, ${count('blocked')} blocked, ${count('not_started')} not started`,
    '',
    'Steps:',
  ];
  plan.steps.forEach((step, i) => {
    lines.push(`${i}. ${STATUS_MARKERS[plan.statuses[i]!]} ${step}`);
    if (plan.notes[i]) lines.push(`   Notes: ${plan.notes[i]}`);
  });
  return lines.join('\n');
}

/** The event form of a plan (`plan.updated`). */
export function planSteps(plan: Plan): PlanStep[] {
  return plan.steps.map((text, i) => {
    const step: PlanStep = { text, status: plan.statuses[i]! };
    const agent = stepAgentTag(text);
    if (agent) step.agent = agent;
    if (plan.notes[i]) step.notes = plan.notes[i];
    return step;
  });
}
