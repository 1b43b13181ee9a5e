import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { createTimeline, positionOfId } from '../../store/timeline/model';
import type { TimelineItem } from '../../store/timeline/types';
import { Waterfall } from './Waterfall';

const EMPTY: readonly TimelineItem[] = [];
const NO_TIMELINE = createTimeline();

/** The run's waterfall, wired to the store: a bar jumps to its step. */
export function RunWaterfall({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const timeline = useWorkbench((s) => s.runs[runId]?.timeline ?? NO_TIMELINE);
  // the step of the selected row is highlighted in the strip
  const selectedStepId = useWorkbench((s) => {
    if (s.selectedItemId === null) return null;
    const list = s.runs[runId]?.timeline.items ?? EMPTY;
    const item = list[positionOfId(list, s.selectedItemId)];
    return item ? (item.kind === 'step' ? item.id : item.stepId) : null;
  });
  return (
    <Waterfall
      timeline={timeline}
      selectedStepId={selectedStepId}
      onJump={(stepId) => store.getState().jumpTo(stepId)}
    />
  );
}
