import { useWorkbench } from '../../store/StoreProvider';
import { positionOfId } from '../../store/timeline/model';

/** The step of the selected timeline row (its own, or its step header's), if any. */
export function useSelectedStep(runId: string): number | undefined {
  return useWorkbench((s) => {
    const timeline = s.runs[runId]?.timeline;
    if (!timeline || s.selectedItemId === null) return undefined;
    const item = timeline.items[positionOfId(timeline.items, s.selectedItemId)];
    if (!item) return undefined;
    if (item.kind === 'step') return item.step;
    const header = timeline.items[positionOfId(timeline.items, item.stepId)];
    return header?.kind === 'step' ? header.step : undefined;
  });
}
