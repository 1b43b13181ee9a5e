/**
 * The exact request of a step (issue 17 item 2): one explained token figure, the
 * parameters and tools sent, and three views of it: the messages (each expandable), the
 * raw JSON body (with copy) and the difference from the previous step's request.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { TEST_IDS } from '../../test-ids';
import { formatCount } from '../../lib/format';
import {
  previousRequestStep,
  stepRequest,
  stepResponse,
  tokenFigure,
  type StepRequest,
} from '../../store/timeline/step-request';
import type { StepItem, TimelineModel } from '../../store/timeline/types';
import { CopyButton } from '../../components/CopyButton';
import { RequestDiff } from './RequestDiff';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

type Tab = 'messages' | 'raw' | 'diff' | 'response';

export function RequestView(props: {
  timeline: TimelineModel;
  step: StepItem;
  request: StepRequest;
  messages: ReactNode;
}) {
  const { timeline, step, request, messages } = props;
  const [tab, setTab] = useState<Tab>('messages');
  const figure = tokenFigure(step, request);
  const previous = useMemo(() => previousRequestStep(timeline, step), [timeline, step]);
  const raw = useMemo(
    () => (tab === 'messages' ? '' : JSON.stringify(request.body, null, 2)),
    [tab, request],
  );
  const previousRaw = useMemo(() => {
    if (tab !== 'diff' || !previous) return '';
    const before = stepRequest(timeline, previous);
    return before ? JSON.stringify(before.body, null, 2) : '';
    // The previous step's request does not change once the step is over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tab, previous]);
  const response = useMemo(
    () => (tab === 'response' ? stepResponse(timeline, step) : undefined),
    [tab, timeline, step],
  );
  const responseRaw = response ? JSON.stringify(response, null, 2) : '';
  const params = step.request?.params;
  const store = useWorkbenchStore();
  const runId = useWorkbench((s) => s.selectedRunId);
  const seq = step.request?.seq;
  return (
    <div className="request-view" data-testid={TEST_IDS.requestView}>
      <p
        className="token-figure"
        data-testid={TEST_IDS.tokenFigure}
        data-estimate={figure.isEstimate}
      >
        <strong>
          {figure.isEstimate ? '≈' : ''}
          {formatCount(figure.tokens)} prompt tokens
        </strong>{' '}
        {figure.isEstimate && <span className="chip">estimate</span>}{' '}
        <span className="muted">— {figure.how}</span>
      </p>
      {seq !== undefined && runId && (
        <button
          type="button"
          className="playground-open"
          data-testid={TEST_IDS.playgroundOpen}
          data-seq={seq}
          title="Edit this request and send it again, beside this reply (the run is not changed)"
          onClick={() => store.getState().openPlayground(runId, seq)}
        >
          Open in playground
        </button>
      )}
      <dl className="request-params" data-testid={TEST_IDS.requestParams}>
        <Param name="model" value={step.request?.model} />
        <Param name="temperature" value={params?.temperature} />
        <Param name="max_tokens" value={params?.max_tokens} />
        <Param name="max_completion_tokens" value={params?.max_completion_tokens} />
        <Param name="tool_choice" value={step.request?.toolChoice} />
        {!params && (
          <p className="muted">
            Parameters and tools were not recorded: this run is older than the exact requests.
          </p>
        )}
      </dl>
      {request.tools && (
        <details className="request-tools">
          <summary>
            {request.tools.length} tool{request.tools.length === 1 ? '' : 's'} offered:{' '}
            <span className="mono">{request.tools.map((t) => t.function.name).join(', ')}</span>
          </summary>
          {request.tools.map((t) => (
            <details
              key={t.function.name}
              className="request-tool"
              data-testid={TEST_IDS.requestTool}
              data-tool={t.function.name}
            >
              <summary className="mono">{t.function.name}</summary>
              <p className="request-tool-description">{t.function.description}</p>
              <pre className="code">{JSON.stringify(t.function.parameters, null, 2)}</pre>
            </details>
          ))}
        </details>
      )}
      {request.isToolListMissing && (
        <p className="muted">The tool list of this request is not in the history.</p>
      )}
      <div className="request-tabs" role="tablist">
        {(['messages', 'raw', 'diff', 'response'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            data-testid={TEST_IDS.requestTab}
            data-tab={t}
            disabled={t === 'diff' && !previous}
            title={t === 'diff' && !previous ? 'No earlier request of this agent' : undefined}
            onClick={() => setTab(t)}
          >
            {TAB_LABELS[t](previous?.step)}
          </button>
        ))}
      </div>
      {tab === 'messages' && messages}
      {tab === 'raw' && (
        <div data-testid={TEST_IDS.requestRaw}>
          <div className="request-raw-bar">
            <span className="muted">
              The body as the client sent it
              {request.isRecorded ? '' : ' (messages rebuilt from memory; image bytes not kept)'}
            </span>
            <CopyButton text={() => raw} label="copy JSON" />
          </div>
          <pre className="code request-raw">{raw}</pre>
        </div>
      )}
      {tab === 'response' && (
        <div data-testid={TEST_IDS.requestResponse}>
          {response ? (
            <>
              <div className="request-raw-bar">
                <span className="muted">The reply: content, tool calls, finish reason, usage</span>
                <CopyButton text={() => responseRaw} label="copy JSON" />
              </div>
              <pre className="code request-raw">{responseRaw}</pre>
            </>
          ) : (
            <p className="muted">No reply yet.</p>
          )}
        </div>
      )}
      {tab === 'diff' && previous && (
        <RequestDiff before={previousRaw} after={raw} previousStep={previous.step} />
      )}
    </div>
  );
}

const TAB_LABELS: Record<Tab, (previousStep: number | undefined) => string> = {
  messages: () => 'Messages',
  raw: () => 'Raw JSON',
  diff: (previousStep) => `Diff vs step ${previousStep ?? '—'}`,
  response: () => 'Response',
};

function Param(props: { name: string; value: string | number | undefined }) {
  if (props.value === undefined) return null;
  return (
    <div className="request-param">
      <dt className="mono">{props.name}</dt>
      <dd className="mono">{String(props.value)}</dd>
    </div>
  );
}
