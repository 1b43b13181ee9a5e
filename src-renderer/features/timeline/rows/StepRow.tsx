import { TEST_IDS } from '../../../test-ids';
import { useWorkbench } from '../../../store/StoreProvider';
import { formatDuration, formatCount } from '../../../lib/format';
import type { StepItem } from '../../../store/timeline/types';
import { RowLink, RowShell } from './RowShell';
import type { RowProps } from './row-props';
import { StepFilesChip } from './FilesLinks';

export function StepRow({
  item,
  isSelected,
  isCollapsed,
  actions,
}: RowProps<StepItem> & { isCollapsed: boolean }) {
  const flags: string[] = [];
  if (item.hasError) flags.push('error');
  if (item.duplicateCount > 0)
    flags.push(`${item.duplicateCount} duplicate${item.duplicateCount > 1 ? 's' : ''}`);
  if (item.isStuck) flags.push('stuck');
  // A fork's (or continuation's) first own step: the branch starts here (the rows above
  // are the parent's context).
  const forkStep = useWorkbench((s) => {
    const summary = s.selectedRunId ? s.runs[s.selectedRunId]?.summary : undefined;
    return (summary?.forkOf ?? summary?.continueOf)?.step;
  });
  const runId = useWorkbench((s) => s.selectedRunId);
  const isBranchStart = forkStep !== undefined && item.step === forkStep + 1;
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.timelineStep}
      className={`row-step${item.isStuck ? ' is-stuck' : ''}${item.hasError ? ' has-error' : ''}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ step: item.step, agent: item.agent }}
    >
      <button
        type="button"
        className="step-toggle"
        aria-expanded={!isCollapsed}
        aria-label={isCollapsed ? `Expand step ${item.step}` : `Collapse step ${item.step}`}
        onClick={(e) => {
          e.stopPropagation();
          actions.toggleStep(item.id);
        }}
      >
        {isCollapsed ? '▸' : '▾'}
      </button>
      <span className="step-title">
        {`Step ${item.step} `}
        <span className="muted">{`/ ${item.maxSteps}`}</span>
      </span>
      <span className="step-agent">{item.agent}</span>
      {item.request && (
        <span
          className="step-request muted"
          title="What the model received: select the step to see it"
        >
          {`${item.request.messageCount} msgs → ${item.request.model}`}
        </span>
      )}
      {item.usage && (
        <span className="muted">
          {`${formatCount(item.usage.prompt)} in / ${formatCount(item.usage.completion)} out`}
        </span>
      )}
      <span className="muted">
        {item.isFinished ? formatDuration(item.durationMs ?? 0) : 'running…'}
      </span>
      {item.nudgedBy !== undefined && (
        <RowLink
          className="chip chip-stuck"
          title="This step's request carried the stuck nudge"
          onClick={() => actions.jumpTo(item.nudgedBy!)}
        >
          nudged
        </RowLink>
      )}
      {isBranchStart && (
        <span
          className="chip chip-branch"
          data-testid={TEST_IDS.branchStart}
          title={`This run branched from its parent after step ${forkStep}`}
        >
          branch starts here
        </span>
      )}
      {runId && item.isFinished && <StepFilesChip runId={runId} step={item.step} />}
      {flags.map((flag) => (
        <span key={flag} className={`chip chip-${flag.includes('duplicate') ? 'dup' : flag}`}>
          {flag}
        </span>
      ))}
    </RowShell>
  );
}
