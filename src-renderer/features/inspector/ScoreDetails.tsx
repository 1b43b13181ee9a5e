import type { ScoreItem } from '../../store/timeline/types';
import { formatDuration } from '../../lib/format';
import { scoreText } from '../../store/timeline/score-item';

/** A scorer's verdict in full: the score, the threshold's verdict, why, and what failed. */
export function ScoreDetails({ item }: { item: ScoreItem }) {
  return (
    <>
      <div className="detail-field">
        <div className="section-label">Score</div>
        <p>
          {scoreText(item.score)} of 1 · {item.passed ? 'passed' : 'failed'} · scored in{' '}
          {formatDuration(item.durationMs)}
        </p>
      </div>
      <div className="detail-field">
        <div className="section-label">Explanation</div>
        <pre className="code detail-text">{item.explanation || '(none)'}</pre>
      </div>
      {item.error !== undefined && (
        <div className="detail-field">
          <div className="section-label">Error: the scorer could not run (score 0)</div>
          <pre className="code detail-text">{item.error}</pre>
        </div>
      )}
    </>
  );
}
