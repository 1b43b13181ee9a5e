import { useMemo } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useWorkbenchStore } from '../../store/StoreProvider';
import { contextAtStep } from '../../store/timeline/context-at-step';
import { estimateTokens, formatTokens } from '../../store/timeline/tokens';
import type { StepItem, TimelineModel } from '../../store/timeline/types';
import { argsSummary, clip, formatCount } from '../../lib/format';

export function ContextAtStep(props: {
  timeline: TimelineModel;
  step: StepItem;
  selectedItemId: number;
}) {
  const { timeline, step, selectedItemId } = props;
  const store = useWorkbenchStore();
  // Recomputed only when the step's own item changes (its request arrives), not per batch.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const context = useMemo(() => contextAtStep(timeline, step), [step]);
  if (!context) {
    return (
      <section className="context" data-testid={TEST_IDS.contextAtStep}>
        <h3>Context at step {step.step}</h3>
        <p className="muted">The model has not been called in this step yet.</p>
      </section>
    );
  }
  return (
    <section className="context" data-testid={TEST_IDS.contextAtStep}>
      <h3>
        Context at step {step.step} <span className="muted">({step.agent})</span>
      </h3>
      <p className="context-total" data-testid={TEST_IDS.contextTotal}>
        {context.messages.length} memory message{context.messages.length === 1 ? '' : 's'}, ≈
        {formatTokens(context.estimatedTokens)} tokens
        {context.promptTokens !== undefined && (
          <> · the model counted {formatCount(context.promptTokens)} prompt tokens</>
        )}
        {context.inputTokens > 0 && <> · guard counted {formatCount(context.inputTokens)}</>}
        {' · '}to <span className="mono">{context.model}</span>
      </p>
      {context.system !== undefined && (
        <details className="context-system" data-testid={TEST_IDS.contextSystem}>
          <summary>
            <span className="role-badge role-system">system</span>{' '}
            <span className="muted">
              ≈{formatTokens(estimateTokens(context.system))}, sent in front of memory
            </span>
          </summary>
          <pre className="context-system-text">{context.system}</pre>
        </details>
      )}
      {context.notInMemory > 0 && (
        <p className="muted">
          + {context.notInMemory} message{context.notInMemory === 1 ? '' : 's'} the runtime added
          that this run's events do not show.
        </p>
      )}
      {context.droppedEarlier > 0 && (
        <p className="muted">
          {context.droppedEarlier} older message{context.droppedEarlier === 1 ? '' : 's'} had left
          the memory window by then and were not sent.
        </p>
      )}
      <ol className="context-list">
        {context.messages.map((m) => (
          <li
            key={m.memoryIndex}
            data-testid={TEST_IDS.contextMessage}
            data-index={m.memoryIndex}
            data-role={m.role}
            className={m.itemId === selectedItemId ? 'is-current' : ''}
          >
            <button
              type="button"
              className="context-item"
              onClick={() => store.getState().jumpTo(m.itemId)}
              title="Show in the timeline"
            >
              <span className={`role-badge role-${m.role}`}>{m.role}</span>
              <span className="muted mono">#{m.memoryIndex}</span>
              <span className="muted">≈{formatTokens(m.tokens)}</span>
              <span className="context-text">
                {m.content ? clip(m.content.replace(/\s+/g, ' '), 160) : ''}
                {m.toolCalls
                  ?.map((c) => ` → ${c.function.name}(${argsSummary(c.function.arguments, 60)})`)
                  .join('')}
              </span>
            </button>
          </li>
        ))}
      </ol>
      {(context.nudgedBy !== undefined || context.nudge !== undefined) && (
        <div className="nudge-note" data-testid={TEST_IDS.contextNudge}>
          <p>
            + the stuck nudge, sent after these messages for this step only
            {context.nudgedBy !== undefined && (
              <>
                {' '}
                —{' '}
                <button
                  type="button"
                  className="link"
                  onClick={() => store.getState().jumpTo(context.nudgedBy!)}
                >
                  see the stuck marker
                </button>
              </>
            )}
          </p>
          {context.nudge !== undefined && (
            <pre className="context-system-text">{context.nudge}</pre>
          )}
        </div>
      )}
    </section>
  );
}
