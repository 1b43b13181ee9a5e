import { TEST_IDS } from '../../../test-ids';
import type { DebugItem } from '../../../store/timeline/types';
import { RowShell } from './RowShell';
import type { RowProps } from './row-props';

const ICON: Record<DebugItem['action'], string> = {
  paused: '‖',
  resumed: '▶',
  edited: '✎',
  breakpoints: '●',
};

/** A pause, a resume, an edit or a change of breakpoints, where it happened. */
export function DebugRow({ item, isSelected, actions }: RowProps<DebugItem>) {
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.debugRow}
      className={`row-marker row-debug debug-${item.action}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ action: item.action, 'edit-kind': item.edit?.kind, by: item.by, point: item.point }}
    >
      <span className="marker-icon" aria-hidden="true">
        {ICON[item.action]}
      </span>
      <span className="marker-text">{item.text}</span>
    </RowShell>
  );
}
