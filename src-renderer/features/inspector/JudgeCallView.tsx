/**
 * An experiment's LLM judge's own model call (issue 31), kept in its `score.recorded`
 * event: shown with the same view as an agent's model call (ModelCallView: messages, the
 * model, the token figure, the raw JSON body and the reply), since it is one.
 */
import { useCallback, useMemo } from 'react';
import type { ScoreJudgeCall } from '@shared/events';
import { requestBody } from '@shared/model-request';
import { TEST_IDS } from '../../test-ids';
import { estimateTokens } from '../../store/timeline/tokens';
import type { TokenFigure } from '../../store/timeline/step-request';
import { ModelCallView, type ShownModelCall } from './RequestView';
import { RecordedMessageList } from './RequestMessageRow';

export function JudgeCallView({ scorer, judge }: { scorer: string; judge: ScoreJudgeCall }) {
  const request = useMemo(
    () => ({
      // (a judge's request is text: no message of it carries an image)
      body: requestBody({
        model: judge.model,
        messages: judge.request.map(({ image: _image, ...m }) => m),
      }),
      isRecorded: true,
      isToolListMissing: false,
    }),
    [judge],
  );
  const response = useCallback(
    () =>
      judge.reply === null
        ? undefined
        : {
            model: judge.model,
            content: judge.reply,
            usage: {
              prompt_tokens: judge.usage.prompt,
              completion_tokens: judge.usage.completion,
            },
          },
    [judge],
  );
  const call: ShownModelCall = {
    model: judge.model,
    request,
    figure: judgeFigure(judge),
    response,
    caller: 'judge',
    noParamsNote: "The judge's call is kept without its sampling parameters; it offers no tools.",
    isSingleCall: true,
  };
  const count = judge.request.length;
  return (
    <section
      className="context"
      data-testid={TEST_IDS.judgeCall}
      data-model={judge.model}
      data-profile={judge.profile}
    >
      <h3>
        The judge's model call <span className="muted">({scorer}): the request</span>
      </h3>
      <p className="context-total">
        {count} message{count === 1 ? '' : 's'}, recorded as sent · to{' '}
        <span className="mono">{judge.model}</span> (profile{' '}
        <span className="mono">{judge.profile}</span>)
        {judge.reply === null ? ' · the call failed: no reply' : ''}
      </p>
      <ModelCallView call={call} messages={<RecordedMessageList messages={judge.request} />} />
    </section>
  );
}

/** The provider's prompt count when the judge answered, else an estimate from the text. */
function judgeFigure(judge: ScoreJudgeCall): TokenFigure {
  if (judge.usage.prompt > 0)
    return {
      tokens: judge.usage.prompt,
      isEstimate: false,
      how: "the provider's count (usage.prompt_tokens of the judge's reply)",
    };
  return {
    tokens: judge.request.reduce((sum, m) => sum + estimateTokens(m.content, m.tool_calls), 0),
    isEstimate: true,
    how: 'counted here: characters ÷ 4, plus 4 per message; the judge did not answer',
  };
}
