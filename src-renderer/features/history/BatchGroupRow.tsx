/**
 * A batch in the history list: one row for all its runs (issue 25 item 6), with its id,
 * agent, how many runs and tasks, and its verdicts in the badges' colours; it opens and
 * closes its runs, and "grid" shows the batch's page.
 */
import { memo } from 'react';
import { tallyParts } from '@shared/run-outcome';
import { TEST_IDS } from '../../test-ids';
import { useWorkbenchStore } from '../../store/StoreProvider';
import type { BatchEntry } from '../../store/history-batches';
import { formatDate } from '../../lib/format';

export const BatchGroupRow = memo(function BatchGroupRow(props: {
  entry: BatchEntry;
  now: number;
  onToggle: (batchId: string, wasOpen: boolean) => void;
}) {
  const store = useWorkbenchStore();
  const { entry, now, onToggle } = props;
  const parts = tallyParts(entry.tally);
  return (
    <li
      className={`history-row history-batch${entry.isOpen ? ' is-open' : ''}`}
      data-testid={TEST_IDS.historyBatch}
      data-batch-id={entry.batchId}
      data-runs={entry.runs}
      data-open={entry.isOpen ? 'true' : 'false'}
    >
      <button
        type="button"
        className="history-item history-batch-toggle"
        aria-expanded={entry.isOpen}
        data-testid={TEST_IDS.historyBatchToggle}
        onClick={() => onToggle(entry.batchId, entry.isOpen)}
        title={entry.isOpen ? 'Hide the runs of this batch' : 'Show the runs of this batch'}
      >
        <span className="history-task">
          <span aria-hidden="true">{entry.isOpen ? '▾' : '▸'} </span>
          Batch{' '}
          <span className="mono" title={entry.batchId}>
            {entry.batchId}
          </span>
        </span>
        <span className="history-meta">
          <span>
            {entry.runs} run{entry.runs === 1 ? '' : 's'}
            {entry.tasks > 1 ? ` of ${entry.tasks} tasks` : ''}
          </span>
          <span>· {entry.agent}</span>
          <span className="history-date">{formatDate(entry.startedAt, now)}</span>
        </span>
        <span className="history-meta" data-testid={TEST_IDS.historyBatchTally}>
          {parts.map((part) => (
            <span
              key={part.kind}
              className={`verdict verdict-${part.tone}`}
              data-verdict={part.kind}
              data-count={part.count}
            >
              <span className="dot" aria-hidden="true" /> {part.text}
            </span>
          ))}
        </span>
      </button>
      <button
        type="button"
        className="link history-batch-open"
        data-testid={TEST_IDS.historyBatchGrid}
        onClick={() => store.getState().showBatch(entry.batchId)}
        title="Open the batch's grid"
      >
        grid
      </button>
    </li>
  );
});
