/**
 * A command the user typed into the run's terminal (issue 32), in the timeline where it
 * was typed: marked as the user's action, not an agent step (its own colour and "you"
 * label; never counted as a step), with its exit code and output.
 */
import { TEST_IDS } from '../../../test-ids';
import type { UserActionItem } from '../../../store/timeline/types';
import { ClampedText } from './ClampedText';
import { RowShell } from './RowShell';
import type { RowProps } from './row-props';

export function UserActionRow({ item, isSelected, isExpanded, actions }: RowProps<UserActionItem>) {
  const record = item.command;
  const status = `exit ${record.exitCode ?? '—'}${record.timedOut ? ' (timed out)' : ''}`;
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.timelineUserAction}
      className={`row-user-action${record.exitCode === 0 ? '' : ' tone-error'}`}
      isSelected={isSelected}
      // the inspector shows agent events; the row itself shows the whole command
      onSelect={() => actions.toggleExpanded(item.id)}
      data={{ seq: record.seq, 'exit-code': record.exitCode ?? '', 'run-state': record.runState }}
    >
      <div className="user-action-head">
        <span className="chip chip-user" title="Typed by you in the Terminal: not an agent step">
          you · terminal
        </span>
        <code className="user-action-command">$ {record.command}</code>
        <span className="muted">
          {`${status} · ${record.durationMs} ms · while ${record.runState}`}
        </span>
      </div>
      {record.output && (
        <ClampedText
          className="user-action-output"
          text={record.output}
          isExpanded={isExpanded}
          onToggle={() => actions.toggleExpanded(item.id)}
        />
      )}
    </RowShell>
  );
}
