/**
 * The plans of one flow (never a class-level dict shared by every instance, as in the
 * original). Every change is published as a `plan.updated` event.
 */
import type { PlanStepStatus, RunEventPayload } from '@shared/events';
import { createPlan, planSteps, replaceSteps, type Plan } from './plan';

export class PlanStore {
  private readonly plans = new Map<string, Plan>();
  private activeId: string | null = null;

  constructor(private readonly emit: (event: RunEventPayload) => void) {}

  get active(): Plan | undefined {
    return this.activeId ? this.plans.get(this.activeId) : undefined;
  }

  get activePlanId(): string | null {
    return this.activeId;
  }

  get(id: string): Plan | undefined {
    return this.plans.get(id);
  }

  list(): Plan[] {
    return [...this.plans.values()];
  }

  create(id: string, title: string, steps: string[]): Plan {
    if (this.plans.has(id))
      throw new Error(`A plan with ID '${id}' already exists. Use 'update' to modify it.`);
    return this.put(createPlan(id, title, steps), true);
  }

  update(id: string, changes: { title?: string; steps?: string[] }): Plan {
    let plan = this.require(id);
    if (changes.title) plan = { ...plan, title: changes.title };
    if (changes.steps) plan = replaceSteps(plan, changes.steps);
    return this.put(plan);
  }

  mark(id: string, index: number, status?: PlanStepStatus, notes?: string): Plan {
    const plan = this.require(id);
    if (!Number.isInteger(index) || index < 0 || index >= plan.steps.length) {
      throw new Error(
        `Invalid step_index: ${index}. Valid indices range from 0 to ${plan.steps.length - 1}.`,
      );
    }
    const statuses = [...plan.statuses];
    const allNotes = [...plan.notes];
    if (status) statuses[index] = status;
    if (notes) allNotes[index] = notes;
    return this.put({ ...plan, statuses, notes: allNotes });
  }

  /** Puts back a plan as a history recorded it (a forked flow), active, announced again. */
  restore(plan: Plan): Plan {
    return this.put(plan, true);
  }

  setActive(id: string): Plan {
    const plan = this.require(id);
    this.activeId = id;
    return plan;
  }

  delete(id: string): void {
    this.require(id);
    this.plans.delete(id);
    if (this.activeId === id) this.activeId = null;
  }

  private require(id: string): Plan {
    const plan = this.plans.get(id);
    if (!plan) throw new Error(`No plan found with ID: ${id}`);
    return plan;
  }

  private put(plan: Plan, makeActive = false): Plan {
    this.plans.set(plan.id, plan);
    if (makeActive || this.activeId === null) this.activeId = plan.id;
    this.emit({ type: 'plan.updated', planId: plan.id, title: plan.title, steps: planSteps(plan) });
    return plan;
  }
}
