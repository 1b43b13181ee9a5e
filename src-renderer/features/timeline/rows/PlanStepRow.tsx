import { TEST_IDS } from '../../../test-ids';
import type { MarkerItem } from '../../../store/timeline/types';
import { RowShell } from './RowShell';
import type { RowProps } from './row-props';

const STATUS_MARK = { not_started: '○', in_progress: '◐', completed: '●', blocked: '⊘' } as const;

/** A flow's plan step: the header its executor's steps nest under; folds like a step. */
export function PlanStepRow({
  item,
  isSelected,
  isCollapsed,
  actions,
}: RowProps<MarkerItem> & { isCollapsed: boolean }) {
  const plan = item.planStep!;
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.timelinePlanStep}
      className={`row-plan-step status-${plan.status}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ 'plan-step': plan.index, status: plan.status, agent: plan.agent }}
    >
      <button
        type="button"
        className="step-toggle"
        aria-expanded={!isCollapsed}
        aria-label={
          isCollapsed
            ? `Expand plan step ${plan.index + 1}`
            : `Collapse plan step ${plan.index + 1}`
        }
        onClick={(e) => {
          e.stopPropagation();
          actions.toggleStep(item.id);
        }}
      >
        {isCollapsed ? '▸' : '▾'}
      </button>
      <span className="plan-mark" aria-label={plan.status.replace('_', ' ')}>
        {STATUS_MARK[plan.status]}
      </span>
      <span className="step-title">Plan step {plan.index + 1}</span>
      <span className="plan-step-text">{plan.text}</span>
      {plan.agent && <span className="step-agent">{plan.agent}</span>}
    </RowShell>
  );
}
