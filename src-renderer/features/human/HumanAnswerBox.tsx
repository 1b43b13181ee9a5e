import { useState, type FormEvent } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { ElicitationForm } from './ElicitationForm';

/**
 * The agent's open `ask_human` question, with a box to answer it; an MCP server's
 * elicitation (a question with a `form`) is answered with the form instead.
 */
export function HumanAnswerBox({ runId }: { runId: string }) {
  const bridge = useBridge();
  const question = useWorkbench((s) => {
    const timeline = s.runs[runId]?.timeline;
    const toolCallId = timeline?.openQuestions[0];
    if (!timeline || !toolCallId) return null;
    const position = timeline.index.human.get(toolCallId);
    const item = position === undefined ? undefined : timeline.items[position];
    return item?.kind === 'human' ? item : null;
  });
  const [answer, setAnswer] = useState('');
  const [state, setState] = useState<
    { status: 'idle' | 'sending' } | { status: 'failed'; error: string }
  >({ status: 'idle' });
  if (!question) return null;
  if (question.form) {
    return (
      <ElicitationForm
        key={question.toolCallId + String(question.id)}
        form={question.form}
        onAnswer={(text) => bridge.answerHuman(runId, question.toolCallId, text)}
      />
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) {
      setState({ status: 'failed', error: 'Type an answer first' });
      return;
    }
    setState({ status: 'sending' });
    try {
      await bridge.answerHuman(runId, question.toolCallId, answer.trim());
      setAnswer('');
      setState({ status: 'idle' });
    } catch (error) {
      setState({ status: 'failed', error: (error as Error).message });
    }
  };
  return (
    <form className="human-box" onSubmit={(e) => void submit(e)} aria-label="Answer the agent">
      <p data-testid={TEST_IDS.humanQuestion}>
        <strong>The agent asks:</strong> {question.question}
      </p>
      <div className="human-answer">
        <textarea
          data-testid={TEST_IDS.humanAnswerInput}
          rows={2}
          value={answer}
          placeholder="Your answer"
          onChange={(e) => setAnswer(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
          }}
        />
        <button
          type="submit"
          data-testid={TEST_IDS.humanAnswerSend}
          disabled={state.status === 'sending'}
        >
          {state.status === 'sending' ? 'Sending…' : 'Answer'}
        </button>
      </div>
      {state.status === 'failed' && (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      )}
    </form>
  );
}
