/**
 * The `planning` tool (OpenManus tool/planning.py): create, update, list, get,
 * set_active, mark_step, delete, over a PlanStore that belongs to one flow. The flow's
 * planner uses it to create and revise the plan; executors get it too, so they can read
 * the plan and add notes.
 */
import { z } from 'zod';
import { PLAN_STEP_STATUSES } from '@shared/events';
import { formatPlan } from './plan';
import type { PlanStore } from './plan-store';
import { fail, ok, type Tool } from '../tool';

const schema = z
  .object({
    command: z
      .enum(['create', 'update', 'list', 'get', 'set_active', 'mark_step', 'delete'])
      .describe('The command to execute.'),
    plan_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Unique identifier for the plan. Required for create, update, set_active and delete; get and mark_step use the active plan if omitted.',
      ),
    title: z
      .string()
      .min(1)
      .optional()
      .describe('Title for the plan. Required for create, optional for update.'),
    steps: z
      .array(z.string().min(1))
      .optional()
      .describe('List of plan steps. Required for create, optional for update.'),
    step_index: z
      .number()
      .int()
      .optional()
      .describe('Index of the step to update (0-based). Required for mark_step.'),
    step_status: z
      .enum(PLAN_STEP_STATUSES)
      .optional()
      .describe('Status to set for a step (mark_step).'),
    step_notes: z.string().optional().describe('Notes for a step (mark_step).'),
  })
  .strict();

export type PlanningArgs = z.infer<typeof schema>;

export function createPlanningTool(store: PlanStore): Tool<PlanningArgs> {
  return {
    name: 'planning',
    description:
      'A planning tool to create and manage the plan for a complex task: create a plan, update its steps, ' +
      'mark a step with a status and notes, and read the plan and its progress.',
    schema,
    execute: async (args) => {
      try {
        return ok(runCommand(store, args));
      } catch (error) {
        return fail((error as Error).message);
      }
    },
  };
}

function runCommand(store: PlanStore, args: PlanningArgs): string {
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined)
      throw new Error(`Parameter \`${name}\` is required for command: ${args.command}`);
    return value;
  };
  const activeOr = (id: string | undefined) => {
    const resolved = id ?? store.activePlanId;
    if (!resolved)
      throw new Error('No active plan. Please specify a plan_id or set an active plan.');
    return resolved;
  };
  switch (args.command) {
    case 'create': {
      const steps = need(args.steps, 'steps');
      if (steps.length === 0)
        throw new Error(
          'Parameter `steps` must be a non-empty list of strings for command: create',
        );
      const plan = store.create(need(args.plan_id, 'plan_id'), need(args.title, 'title'), steps);
      return `Plan created successfully with ID: ${plan.id}\n\n${formatPlan(plan)}`;
    }
    case 'update': {
      const plan = store.update(need(args.plan_id, 'plan_id'), {
        ...(args.title ? { title: args.title } : {}),
        ...(args.steps && args.steps.length > 0 ? { steps: args.steps } : {}),
      });
      return `Plan updated successfully: ${plan.id}\n\n${formatPlan(plan)}`;
    }
    case 'list': {
      const plans = store.list();
      if (plans.length === 0) return "No plans available. Create a plan with the 'create' command.";
      return [
        'Available plans:',
        ...plans.map((p) => {
          const done = p.statuses.filter((s) => s === 'completed').length;
          const marker = p.id === store.activePlanId ? ' (active)' : '';
          return `• ${p.id}${marker}: ${p.title} - ${done}/${p.steps.length} steps completed`;
        }),
      ].join('\n');
    }
    case 'get': {
      const id = activeOr(args.plan_id);
      const plan = store.get(id);
      if (!plan) throw new Error(`No plan found with ID: ${id}`);
      return formatPlan(plan);
    }
    case 'set_active': {
      const plan = store.setActive(need(args.plan_id, 'plan_id'));
      return `Plan '${plan.id}' is now the active plan.\n\n${formatPlan(plan)}`;
    }
    case 'mark_step': {
      const id = activeOr(args.plan_id);
      const plan = store.mark(
        id,
        need(args.step_index, 'step_index'),
        args.step_status,
        args.step_notes,
      );
      return `Step ${args.step_index} updated in plan '${id}'.\n\n${formatPlan(plan)}`;
    }
    case 'delete': {
      const id = need(args.plan_id, 'plan_id');
      store.delete(id);
      return `Plan '${id}' has been deleted.`;
    }
  }
}
