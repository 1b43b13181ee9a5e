import { memo } from 'react';
import type { TimelineItem } from '../../../store/timeline/types';
import { MessageRow, StreamRow } from './MessageRow';
import { ToolCallCard } from './ToolCallCard';
import { StepRow } from './StepRow';
import { FinishedRow, HumanRow, MarkerRow, RunStartRow, StuckRow } from './MarkerRows';
import type { RowActions } from './row-props';
import { DebugRow } from './DebugRow';
import { PlanStepRow } from './PlanStepRow';
import { UserActionRow } from './UserActionRow';
import { ScoreRow } from './ScoreRow';

export interface TimelineRowProps {
  item: TimelineItem;
  isSelected: boolean;
  isExpanded: boolean;
  isCollapsed: boolean;
  actions: RowActions;
}

/** One row; re-renders only when its item object or its selection/expansion changes. */
export const TimelineRow = memo(function TimelineRow({
  item,
  isCollapsed,
  ...rest
}: TimelineRowProps) {
  switch (item.kind) {
    case 'step':
      return <StepRow item={item} isCollapsed={isCollapsed} {...rest} />;
    case 'message':
      return <MessageRow item={item} {...rest} />;
    case 'stream':
      return <StreamRow item={item} {...rest} />;
    case 'tool':
      return <ToolCallCard item={item} {...rest} />;
    case 'marker':
      return item.planStep ? (
        <PlanStepRow item={item} isCollapsed={isCollapsed} {...rest} />
      ) : (
        <MarkerRow item={item} {...rest} />
      );
    case 'stuck':
      return <StuckRow item={item} {...rest} />;
    case 'run':
      return <RunStartRow item={item} {...rest} />;
    case 'human':
      return <HumanRow item={item} {...rest} />;
    case 'finished':
      return <FinishedRow item={item} {...rest} />;
    case 'score':
      return <ScoreRow item={item} {...rest} />;
    case 'debug':
      return <DebugRow item={item} {...rest} />;
    case 'user':
      return <UserActionRow item={item} {...rest} />;
  }
});
