/**
 * One scorer's verdict on the run (issue 31): name, kind, score in [0, 1], pass or fail,
 * the explanation and, when the scorer could not run, its error. The first score of the
 * run heads the "Scores" section; a judge's row says its model call opens in the inspector.
 */
import { TEST_IDS } from '../../../test-ids';
import type { ScoreItem } from '../../../store/timeline/types';
import { scoreText } from '../../../store/timeline/score-item';
import { ClampedText } from './ClampedText';
import { RowShell } from './RowShell';
import type { RowProps } from './row-props';

export function ScoreRow({ item, isSelected, isExpanded, actions }: RowProps<ScoreItem>) {
  const verdict = item.error !== undefined ? 'error' : item.passed ? 'pass' : 'fail';
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.runScore}
      className={`row-score score-${verdict}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{
        scorer: item.scorer,
        'scorer-kind': item.scorerKind,
        score: item.score,
        passed: String(item.passed),
        error: item.error !== undefined ? 'true' : undefined,
      }}
    >
      {item.isFirstScore && <div className="section-label">Scores</div>}
      <div className="score-line">
        <span className={`score-badge score-${verdict}`}>
          {verdict === 'error' ? 'error' : verdict === 'pass' ? '✓ pass' : '✗ fail'}
        </span>{' '}
        <strong className="mono">{item.scorer}</strong>{' '}
        <span className="muted">({item.scorerKind})</span>{' '}
        <strong className="score-value">{scoreText(item.score)}</strong>
        {item.judge && (
          <>
            {' '}
            <button
              type="button"
              className="link"
              data-testid={TEST_IDS.runScoreJudge}
              title="The judge's own request and reply, in the inspector"
              onClick={(e) => {
                e.stopPropagation();
                actions.select(item.id);
              }}
            >
              judge's call ({item.judge.model})
            </button>
          </>
        )}
      </div>
      {item.explanation !== '' && (
        <ClampedText
          className="msg-text"
          text={item.explanation}
          isExpanded={isExpanded}
          onToggle={() => actions.toggleExpanded(item.id)}
        />
      )}
      {item.error !== undefined && <div className="msg-text error-text">{item.error}</div>}
    </RowShell>
  );
}
