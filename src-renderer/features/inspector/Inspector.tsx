/**
 * The selected row in full, and "context at this step": the messages the model
 * received for the request of the step the row belongs to.
 */
import { TEST_IDS } from '../../test-ids';
import { useWorkbench } from '../../store/StoreProvider';
import { positionOfId } from '../../store/timeline/model';
import type { StepItem, TimelineItem } from '../../store/timeline/types';
import { ContextAtStep } from './ContextAtStep';
import { ItemDetails } from './ItemDetails';
import { ForkFromStep } from './ForkFromStep';
import { AgentDefinitionView } from './AgentDefinitionView';
import { JudgeCallView } from './JudgeCallView';

export function Inspector() {
  const runId = useWorkbench((s) => s.selectedRunId);
  const selectedItemId = useWorkbench((s) => s.selectedItemId);
  const timeline = useWorkbench((s) =>
    s.selectedRunId ? s.runs[s.selectedRunId]?.timeline : undefined,
  );
  const item: TimelineItem | undefined =
    timeline && selectedItemId !== null
      ? timeline.items[positionOfId(timeline.items, selectedItemId)]
      : undefined;
  const step: StepItem | undefined = (() => {
    if (!timeline || !item) return undefined;
    if (item.kind === 'step') return item;
    const header = timeline.items[positionOfId(timeline.items, item.stepId)];
    return header?.kind === 'step' ? header : undefined;
  })();

  if (!runId || !timeline || !item) {
    const started = timeline?.items[0];
    return (
      <aside className="inspector" data-testid={TEST_IDS.inspector} aria-label="Inspector">
        <div className="empty-state" data-testid={TEST_IDS.inspectorEmpty}>
          <h2>Inspector</h2>
          <p>
            Select a row (click it, or move with j / k) to see it in full, with the exact messages
            the model received for that step.
          </p>
          <p className="muted" data-testid={TEST_IDS.inspectorKeys}>
            Keys: <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Home</kbd>/<kbd>End</kbd> first/last ·{' '}
            <kbd>]</kbd>/<kbd>[</kbd> next/previous step · <kbd>e</kbd> error · <kbd>d</kbd>{' '}
            duplicate · <kbd>s</kbd> stuck (Shift: back) · <kbd>Enter</kbd> expand · <kbd>/</kbd>{' '}
            search · <kbd>Esc</kbd> deselect · <kbd>p</kbd> pause · <kbd>Shift</kbd>+<kbd>X</kbd>{' '}
            stop
          </p>
          {started?.kind === 'run' && started.agentDefinition && (
            <AgentDefinitionView recorded={started.agentDefinition} />
          )}
        </div>
      </aside>
    );
  }
  return (
    <aside className="inspector" data-testid={TEST_IDS.inspector} aria-label="Inspector">
      <ItemDetails item={item} />
      {item.kind === 'score' && item.judge ? (
        <JudgeCallView scorer={item.scorer} judge={item.judge} />
      ) : step ? (
        <ContextAtStep timeline={timeline} step={step} selectedItemId={item.id} />
      ) : (
        <p className="muted inspector-note">
          This row is not part of a step: no model request belongs to it.
        </p>
      )}
      {step && step.isFinished && (
        <ForkFromStep runId={runId} step={step.step} agent={step.agent} />
      )}
    </aside>
  );
}
