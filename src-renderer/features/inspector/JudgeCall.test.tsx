/**
 * Scores in the run view (issue 31): each `score.recorded` event is a row after the
 * agent's last step (scorer, kind, score, pass/fail, explanation, error), and a judge's
 * score opens the judge's own request and reply in the inspector with the view of any
 * model call (messages, model, token figure, raw JSON, reply).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

function scoredRun(): RunScript {
  const s = new RunScript('r-scored').start('What is six times seven?');
  s.addStep({ content: 'The answer is 42.' });
  s.endStep();
  s.emit({
    type: 'score.recorded',
    scorer: 'answer',
    kind: 'answer',
    score: 1,
    passed: true,
    explanation: 'the answer contains "42"',
    durationMs: 1,
  });
  s.emit({
    type: 'score.recorded',
    scorer: 'judge',
    kind: 'judge',
    score: 0.9,
    passed: true,
    explanation: 'correct and complete',
    durationMs: 420,
    judge: {
      profile: 'judging',
      model: 'm-judge',
      request: [
        { role: 'system', content: 'You are the judge of an experiment. RUBRIC-TEXT' },
        { role: 'user', content: 'Task: What is six times seven? Answer: The answer is 42.' },
      ],
      reply: '{"score": 0.9, "explanation": "correct and complete"}',
      usage: { prompt: 77, completion: 12 },
    },
  });
  s.emit({
    type: 'score.recorded',
    scorer: 'check',
    kind: 'shell',
    score: 0,
    passed: false,
    explanation: 'the check could not run',
    durationMs: 3,
    error: 'the sandbox is gone',
  });
  s.finish();
  return s;
}

async function openRun(script: RunScript) {
  const api = createMemoryApi();
  api.history.set(script.runId, script.events);
  await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  await flush();
}

describe('Scores in the run view', () => {
  it('shows each score as a row before the run’s end, with pass, fail and error', async () => {
    await openRun(scoredRun());
    const rows = screen.getAllByTestId('run-score');
    expect(rows.map((r) => r.getAttribute('data-scorer'))).toEqual(['answer', 'judge', 'check']);
    expect(rows[0]!.textContent).toContain('Scores');
    expect(rows[0]!.textContent).toMatch(/✓ pass.*answer.*\(answer\).*1\.00/);
    expect(rows[0]!.textContent).toContain('the answer contains "42"');
    expect(rows[1]!.getAttribute('data-score')).toBe('0.9');
    expect(rows[1]!.textContent).toMatch(/judge.*0\.90/);
    expect(rows[1]!.textContent).not.toContain('Scores');
    expect(rows[2]!.getAttribute('data-passed')).toBe('false');
    expect(rows[2]!.getAttribute('data-error')).toBe('true');
    expect(rows[2]!.textContent).toContain('the sandbox is gone');
    // after the agent's steps, before the run's end
    const all = screen
      .getAllByRole('option')
      .map((r) => r.getAttribute('data-kind'))
      .filter((kind) => kind !== 'marker');
    expect(all.slice(-5)).toEqual(['message', 'score', 'score', 'score', 'finished']);
  });

  it('selecting a plain score shows it in full, without a model request', async () => {
    await openRun(scoredRun());
    fireEvent.click(screen.getAllByTestId('run-score')[2]!);
    const inspector = screen.getByTestId('inspector');
    expect(inspector.textContent).toContain('Score check (shell)');
    expect(inspector.textContent).toContain('the sandbox is gone');
    expect(screen.queryByTestId('judge-call')).toBeNull();
  });

  it("opens the judge's request and reply like any model call", async () => {
    await openRun(scoredRun());
    fireEvent.click(screen.getByTestId('run-score-judge'));
    const call = screen.getByTestId('judge-call');
    expect(call.getAttribute('data-model')).toBe('m-judge');
    expect(call.getAttribute('data-profile')).toBe('judging');
    // the view of an agent's model call: messages, the model, the token figure, tabs
    const view = within(call).getByTestId('request-view');
    expect(within(view).getByTestId('request-params').textContent).toContain('modelm-judge');
    const figure = within(view).getByTestId('token-figure');
    expect(figure.getAttribute('data-estimate')).toBe('false');
    expect(figure.textContent).toMatch(/77 prompt tokens/);
    const messages = within(call).getAllByTestId('context-message');
    expect(messages.map((m) => m.getAttribute('data-role'))).toEqual(['system', 'user']);
    expect(messages[0]!.textContent).toContain('RUBRIC-TEXT');
    const tab = (name: string) =>
      within(view)
        .getAllByTestId('request-tab')
        .find((t) => t.getAttribute('data-tab') === name)!;
    fireEvent.click(tab('raw'));
    const raw = JSON.parse(
      within(view).getByTestId('request-raw').querySelector('pre')!.textContent!,
    ) as { model: string; messages: { role: string; content: string }[] };
    expect(raw.model).toBe('m-judge');
    expect(raw.messages[1]!.content).toContain('six times seven');
    fireEvent.click(tab('response'));
    const reply = JSON.parse(
      within(view).getByTestId('request-response').querySelector('pre')!.textContent!,
    ) as { content: string; usage: { completion_tokens: number } };
    expect(reply.content).toBe('{"score": 0.9, "explanation": "correct and complete"}');
    expect(reply.usage.completion_tokens).toBe(12);
    // one call per run: nothing to diff against
    expect(tab('diff')).toBeUndefined();
    expect(within(view).getByTestId('request-params').textContent).toContain(
      'kept without its sampling parameters',
    );
  });
});
