import { describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { PlanStore } from './plan-store';
import { createPlanningTool, type PlanningArgs } from './planning-tool';

function setup() {
  const events: RunEventPayload[] = [];
  const store = new PlanStore((e) => events.push(e));
  const tool = createPlanningTool(store);
  const call = (args: PlanningArgs) => tool.execute(tool.schema.parse(args), undefined as never);
  return { events, store, call };
}

describe('planning tool', () => {
  it('creates a plan with the original format and markers, and publishes plan.updated', async () => {
    const { call, events } = setup();
    const result = await call({
      command: 'create',
      plan_id: 'p1',
      title: 'Ship it',
      steps: ['build', 'test'],
    });
    expect(result.error).toBeUndefined();
    expect(result.output).toContain('Plan created successfully with ID: p1');
    expect(result.output).toContain('Progress: 0/2 steps completed (0.0%)');
    expect(result.output).toContain('0. [ ] build');
    expect(events).toEqual([
      {
        type: 'plan.updated',
        planId: 'p1',
        title: 'Ship it',
        steps: [
          { text: 'build', status: 'not_started' },
          { text: 'test', status: 'not_started' },
        ],
      },
    ]);
  });

  it('marks steps with each status marker and notes, on the active plan by default', async () => {
    const { call } = setup();
    await call({ command: 'create', plan_id: 'p1', title: 'T', steps: ['a', 'b', 'c', 'd'] });
    await call({ command: 'mark_step', step_index: 0, step_status: 'completed' });
    await call({ command: 'mark_step', step_index: 1, step_status: 'in_progress' });
    const result = await call({
      command: 'mark_step',
      step_index: 2,
      step_status: 'blocked',
      step_notes: 'needs a key',
    });
    expect(result.output).toContain('0. [✓] a');
    expect(result.output).toContain('1. [→] b');
    expect(result.output).toContain('2. [!] c\n   Notes: needs a key');
    expect(result.output).toContain('3. [ ] d');
    expect(result.output).toContain('Progress: 1/4 steps completed (25.0%)');
  });

  it('keeps a step status on update only when its text is unchanged at the same index', async () => {
    const { call, store } = setup();
    await call({ command: 'create', plan_id: 'p1', title: 'T', steps: ['a', 'b'] });
    await call({ command: 'mark_step', step_index: 0, step_status: 'completed' });
    await call({ command: 'mark_step', step_index: 1, step_status: 'completed' });
    await call({ command: 'update', plan_id: 'p1', steps: ['a', 'x', 'b'] });
    expect(store.get('p1')?.statuses).toEqual(['completed', 'not_started', 'not_started']);
  });

  it('answers bad commands with errors instead of throwing', async () => {
    const { call } = setup();
    expect((await call({ command: 'get' })).error).toMatch(/No active plan/);
    expect((await call({ command: 'create', plan_id: 'p', title: 'T' })).error).toMatch(/steps/);
    await call({ command: 'create', plan_id: 'p', title: 'T', steps: ['a'] });
    expect(
      (await call({ command: 'create', plan_id: 'p', title: 'T', steps: ['a'] })).error,
    ).toMatch(/already exists/);
    expect((await call({ command: 'mark_step', step_index: 5 })).error).toMatch(
      /Invalid step_index: 5/,
    );
    expect((await call({ command: 'delete', plan_id: 'nope' })).error).toMatch(/No plan found/);
    expect((await call({ command: 'list' })).output).toContain(
      '• p (active): T - 0/1 steps completed',
    );
  });

  it('keeps plans per store: two flows never share plans (openmanus 7.2 item 8)', async () => {
    const a = setup();
    const b = setup();
    await a.call({ command: 'create', plan_id: 'p', title: 'T', steps: ['a'] });
    expect((await b.call({ command: 'list' })).output).toMatch(/No plans available/);
  });
});
