import type { TimelineItem } from '../../../store/timeline/types';

/** What a row can do; the functions are stable for the life of the timeline. */
export interface RowActions {
  select(id: number): void;
  toggleExpanded(id: number): void;
  toggleStep(stepId: number): void;
  jumpTo(id: number): void;
}

export interface RowProps<T extends TimelineItem> {
  item: T;
  isSelected: boolean;
  isExpanded: boolean;
  actions: RowActions;
}
