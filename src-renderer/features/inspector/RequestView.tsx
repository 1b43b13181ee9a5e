/**
 * The exact request of a step (issue 17 item 2): one explained token figure, the
 * parameters and tools sent, and three views of it: the messages (each expandable), the
 * raw JSON body (with copy) and the difference from the previous step's request.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { RequestParams } from '@shared/events';
import { TEST_IDS } from '../../test-ids';
import { formatCount } from '../../lib/format';
import {
  previousRequestStep,
  stepRequest,
  stepResponse,
  tokenFigure,
  type StepRequest,
  type TokenFigure,
} from '../../store/timeline/step-request';
import type { StepItem, TimelineModel } from '../../store/timeline/types';
import { CopyButton } from '../../components/CopyButton';
import { RequestDiff } from './RequestDiff';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

type Tab = 'messages' | 'raw' | 'diff' | 'response';

/**
 * One model call as the inspector shows it, whoever made it: an agent's step (RequestView
 * below) or an experiment's LLM judge (JudgeCallView). The reply and the previous request
 * are functions: they are computed only when their tab is open.
 */
export interface ShownModelCall {
  model: string | undefined;
  params?: RequestParams | undefined;
  toolChoice?: 'auto' | 'required' | 'none' | undefined;
  request: Pick<StepRequest, 'tools' | 'isToolListMissing' | 'body' | 'isRecorded'>;
  figure: TokenFigure;
  response: () => Record<string, unknown> | undefined;
  /** the caller's request before this one, for the diff (absent: none) */
  previous?: { step: number; body: () => Record<string, unknown> | undefined } | undefined;
  /** the `llm.requested` seq to open in the playground (absent: not offered) */
  playgroundSeq?: number | undefined;
  /** what the caller is, in "No earlier request of this …" */
  caller: string;
  /** said when no parameters were recorded (absent: an agent's call of an older run) */
  noParamsNote?: string;
  /** the caller makes one call: no "Diff" tab */
  isSingleCall?: boolean;
}

/** A step's request: the agent's model call of that step. */
export function RequestView(props: {
  timeline: TimelineModel;
  step: StepItem;
  request: StepRequest;
  messages: ReactNode;
}) {
  const { timeline, step, request, messages } = props;
  const previousStep = useMemo(() => previousRequestStep(timeline, step), [timeline, step]);
  const previous = useMemo(
    () =>
      previousStep && {
        step: previousStep.step,
        body: () => stepRequest(timeline, previousStep)?.body,
      },
    // The previous step's request does not change once the step is over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [previousStep],
  );
  const response = useCallback(() => stepResponse(timeline, step), [timeline, step]);
  const call: ShownModelCall = {
    model: step.request?.model,
    params: step.request?.params,
    toolChoice: step.request?.toolChoice,
    request,
    figure: tokenFigure(step, request),
    response,
    previous,
    playgroundSeq: step.request?.seq,
    caller: 'agent',
  };
  return <ModelCallView call={call} messages={messages} />;
}

export function ModelCallView({ call, messages }: { call: ShownModelCall; messages: ReactNode }) {
  const { request, figure, previous } = call;
  const [tab, setTab] = useState<Tab>('messages');
  const raw = useMemo(
    () => (tab === 'messages' ? '' : JSON.stringify(request.body, null, 2)),
    [tab, request],
  );
  const previousRaw = useMemo(() => {
    if (tab !== 'diff' || !previous) return '';
    const before = previous.body();
    return before ? JSON.stringify(before, null, 2) : '';
  }, [tab, previous]);
  const response = useMemo(
    () => (tab === 'response' ? call.response() : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tab, call.response],
  );
  const responseRaw = response ? JSON.stringify(response, null, 2) : '';
  const params = call.params;
  const store = useWorkbenchStore();
  const runId = useWorkbench((s) => s.selectedRunId);
  const seq = call.playgroundSeq;
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
        <Param name="model" value={call.model} />
        <Param name="temperature" value={params?.temperature} />
        <Param name="max_tokens" value={params?.max_tokens} />
        <Param name="max_completion_tokens" value={params?.max_completion_tokens} />
        <Param name="tool_choice" value={call.toolChoice} />
        {!params && (
          <p className="muted">
            {call.noParamsNote ??
              'Parameters and tools were not recorded: this run is older than the exact requests.'}
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
        {TABS.filter((t) => t !== 'diff' || !call.isSingleCall).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            data-testid={TEST_IDS.requestTab}
            data-tab={t}
            disabled={t === 'diff' && !previous}
            title={
              t === 'diff' && !previous ? `No earlier request of this ${call.caller}` : undefined
            }
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

const TABS = ['messages', 'raw', 'diff', 'response'] as const;

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
