import { TEST_IDS } from '../../../test-ids';
import { formatUsage } from '../../../lib/format';
import type {
  FinishedItem,
  HumanItem,
  MarkerItem,
  RunStartItem,
  StuckItem,
} from '../../../store/timeline/types';
import { RowLink, RowShell } from './RowShell';
import { ClampedText } from './ClampedText';
import { runErrorText } from '../../../store/timeline/run-error-text';
import type { RowProps } from './row-props';

const MARKER_ICON: Record<MarkerItem['marker'], string> = {
  state: '◆',
  retry: '↻',
  truncated: '✂',
  sandbox: '▣',
  plan: '☰',
  replay: '⇄',
};

export function MarkerRow({ item, isSelected, actions }: RowProps<MarkerItem>) {
  const dropped = item.dropped ?? [];
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.timelineMarker}
      className={`row-marker tone-${item.tone}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ marker: item.marker }}
    >
      <span className="marker-icon" aria-hidden="true">
        {MARKER_ICON[item.marker]}
      </span>
      <span className="marker-text">{item.text}</span>
      {dropped.length > 0 && item.droppedItems && item.droppedItems.length > 0 && (
        <span className="muted">
          {' '}
          (#{dropped[0]}
          {dropped.length > 1 ? `–#${dropped[dropped.length - 1]}` : ''}:{' '}
          <RowLink onClick={() => actions.jumpTo(item.droppedItems![0]!)}>show the first</RowLink>)
        </span>
      )}
      {item.occurrences && item.occurrences.length > 0 && (
        <span className="muted">
          {' '}
          (failed calls:{' '}
          {item.occurrences.map((id, i) => (
            <RowLink key={id} testId={TEST_IDS.repeatLink} onClick={() => actions.jumpTo(id)}>
              {i === 0 ? '' : ' '}#{i + 1}
            </RowLink>
          ))}
          )
        </span>
      )}
    </RowShell>
  );
}

export function StuckRow({ item, isSelected, actions }: RowProps<StuckItem>) {
  const what =
    item.stuckKind === 'content' ? 'the same content' : 'the same tool calls (name and arguments)';
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.stuckMarker}
      className="row-stuck"
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ kind: item.stuckKind, count: item.count }}
    >
      <div>
        <strong>Stuck detected</strong> in step {item.step}: {what} {item.count} times (rule:{' '}
        <span className="mono">{item.stuckKind}</span>). Earlier:{' '}
        {item.duplicateOf.map((index, i) => {
          const target = item.duplicateItems[i];
          return target === undefined ? (
            <span key={index} className="mono">
              #{index}{' '}
            </span>
          ) : (
            <RowLink
              key={index}
              testId={TEST_IDS.duplicateLink}
              data={{ 'target-index': index }}
              onClick={() => actions.jumpTo(target)}
            >
              #{index}
            </RowLink>
          );
        })}
      </div>
      <div className="muted">
        {item.nudge ? (
          <>
            Nudge injected into the request of{' '}
            <RowLink testId={TEST_IDS.nudgeLink} onClick={() => actions.jumpTo(item.nudge!.stepId)}>
              step {item.nudge.step}
            </RowLink>{' '}
            (sent after its memory messages, that step only)
          </>
        ) : (
          'The nudge goes into the next step.'
        )}
      </div>
    </RowShell>
  );
}

export function RunStartRow({ item, isSelected, isExpanded, actions }: RowProps<RunStartItem>) {
  return (
    <RowShell
      item={item}
      testId="run-started"
      className="row-run"
      isSelected={isSelected}
      onSelect={actions.select}
    >
      <div className="muted">
        {item.flow ? `${item.flow} flow` : item.agent} on <span className="mono">{item.model}</span>
        , up to {item.maxSteps} steps
      </div>
      <ClampedText
        text={item.task}
        isExpanded={isExpanded}
        onToggle={() => actions.toggleExpanded(item.id)}
      />
    </RowShell>
  );
}

export function HumanRow({ item, isSelected, actions }: RowProps<HumanItem>) {
  return (
    <RowShell
      item={item}
      testId="human-row"
      className="row-human"
      isSelected={isSelected}
      onSelect={actions.select}
    >
      <div>
        <strong>The agent asks:</strong> {item.question}
      </div>
      <div className={item.answer === undefined ? 'muted' : ''}>
        {item.answer === undefined
          ? 'Waiting for your answer (above the timeline)…'
          : `You answered: ${item.answer}`}
      </div>
    </RowShell>
  );
}

const OUTCOME_TEXT: Record<FinishedItem['outcome'], string> = {
  finished: 'Run finished',
  max_steps: 'Run stopped: the step limit was reached',
  error: 'Run failed',
  cancelled: 'Run cancelled',
};

/** The final row says what the badge says (a finished run with failed calls is not plain "finished"). */
function finishedText(item: FinishedItem): string {
  if (item.outcome !== 'finished') return OUTCOME_TEXT[item.outcome];
  return `Run ${item.verdict.label}`;
}

export function FinishedRow({ item, isSelected, isExpanded, actions }: RowProps<FinishedItem>) {
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.runFinished}
      className={`row-finished outcome-${item.outcome} verdict-${item.verdict.tone}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ outcome: item.outcome, verdict: item.verdict.kind }}
    >
      <div>
        <strong>{finishedText(item)}</strong> after {item.steps} step
        {item.steps === 1 ? '' : 's'} · {formatUsage(item.usage)}
        {item.terminateStatus && (
          <span className="muted"> · terminate: {item.terminateStatus}</span>
        )}
      </div>
      {item.error && (
        <ClampedText
          className="msg-text error-text"
          text={runErrorText(item.error, item.sandboxCause)}
          isExpanded={isExpanded}
          onToggle={() => actions.toggleExpanded(item.id)}
        />
      )}
    </RowShell>
  );
}
