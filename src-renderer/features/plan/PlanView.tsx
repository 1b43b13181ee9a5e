import { useState } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

const STATUS_MARK = { not_started: '○', in_progress: '◐', completed: '●', blocked: '⊘' } as const;

/**
 * The PlanningFlow's plan as last updated: each step with its status. A step that has
 * started is a link to its header in the timeline.
 */
export function PlanView({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const plan = useWorkbench((s) => s.runs[runId]?.timeline.plan);
  const [isOpen, setOpen] = useState(true);
  if (!plan) return null;
  const done = plan.steps.filter((s) => s.status === 'completed').length;
  return (
    <section className="plan-view" data-testid={TEST_IDS.planView} aria-label="Plan">
      <button
        type="button"
        className="plan-toggle"
        aria-expanded={isOpen}
        onClick={() => setOpen(!isOpen)}
      >
        {isOpen ? '▾' : '▸'} Plan: {plan.title}{' '}
        <span className="muted">
          ({done} of {plan.steps.length} done)
        </span>
      </button>
      {isOpen && (
        <ol className="plan-steps">
          {plan.steps.map((step, i) => (
            <li
              key={i}
              data-testid={TEST_IDS.planStep}
              data-status={step.status}
              className={`plan-step status-${step.status}`}
            >
              <span className="plan-mark" aria-label={step.status.replace('_', ' ')}>
                {STATUS_MARK[step.status]}
              </span>{' '}
              {plan.stepItems[i] !== undefined ? (
                <button
                  type="button"
                  className="link plan-step-link"
                  title="Show this plan step in the timeline"
                  onClick={() => store.getState().jumpTo(plan.stepItems[i]!)}
                >
                  {step.text}
                </button>
              ) : (
                step.text
              )}
              {step.agent && <span className="muted"> · {step.agent}</span>}
              {step.notes && <div className="muted plan-notes">{step.notes}</div>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
