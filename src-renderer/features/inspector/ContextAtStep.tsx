import { useMemo } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useWorkbenchStore } from '../../store/StoreProvider';
import { stepRequest } from '../../store/timeline/step-request';
import { estimateTokens, formatTokens } from '../../store/timeline/tokens';
import type { StepItem, TimelineModel } from '../../store/timeline/types';
import { CopyButton } from '../../components/CopyButton';
import { RequestView } from './RequestView';
import { RecordedMessageList, RequestMessageRow as MessageRow } from './RequestMessageRow';

/**
 * "Context at this step": the step's model request in full. Each message opens in place
 * (the whole text, tool calls with their arguments, copy); "show" selects it in the
 * timeline.
 */
export function ContextAtStep(props: {
  timeline: TimelineModel;
  step: StepItem;
  selectedItemId: number;
}) {
  const { timeline, step, selectedItemId } = props;
  const store = useWorkbenchStore();
  // Recomputed only when the step's own item changes (its request arrives, its usage),
  // not per batch.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const request = useMemo(() => stepRequest(timeline, step), [step]);
  if (!request) {
    return (
      <section className="context" data-testid={TEST_IDS.contextAtStep}>
        <h3>Context at step {step.step}</h3>
        <p className="muted">The model has not been called in this step yet.</p>
      </section>
    );
  }
  const { context } = request;
  const jump = (itemId: number) => store.getState().jumpTo(itemId);
  const list = request.isRecorded ? (
    <RecordedMessageList messages={request.messages} />
  ) : (
    <>
      {context.system !== undefined && (
        <details className="context-system" data-testid={TEST_IDS.contextSystem}>
          <summary>
            <span className="role-badge role-system">system</span>{' '}
            <span className="muted">
              ≈{formatTokens(estimateTokens(context.system))}, sent in front of memory
            </span>
          </summary>
          <pre className="context-system-text">{context.system}</pre>
          <CopyButton text={() => context.system ?? ''} />
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
          <MessageRow
            key={m.memoryIndex}
            index={m.memoryIndex}
            role={m.role}
            content={m.content}
            toolCalls={m.toolCalls}
            tokens={m.tokens}
            isCurrent={m.itemId === selectedItemId}
            onShow={() => jump(m.itemId)}
          />
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
                <button type="button" className="link" onClick={() => jump(context.nudgedBy!)}>
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
    </>
  );
  const count = request.isRecorded ? request.messages.length : context.messages.length;
  return (
    <section className="context" data-testid={TEST_IDS.contextAtStep}>
      <h3>
        Context at step {step.step} <span className="muted">({step.agent}): the request</span>
      </h3>
      <p className="context-total" data-testid={TEST_IDS.contextTotal}>
        {request.isRecorded
          ? `${count} message${count === 1 ? '' : 's'}, recorded as sent`
          : `${count} memory message${count === 1 ? '' : 's'}`}
        {' · '}to <span className="mono">{context.model}</span>
      </p>
      <RequestView timeline={timeline} step={step} request={request} messages={list} />
    </section>
  );
}
