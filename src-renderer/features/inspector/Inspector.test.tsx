/**
 * The inspector's exact request (issue 17 item 2) and live tool output (item 4): every
 * message opens in place, parameters and tools as sent, raw JSON with copy, a diff
 * against the previous step's request, one explained token figure; a running command's
 * output on its card and in a terminal panel.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RequestTool } from '@shared/events';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

const tools: RequestTool[] = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: 'Run a bash command',
      parameters: { type: 'object', properties: { command: { type: 'string' } } },
    },
  },
];

async function openRun(script: RunScript) {
  const api = createMemoryApi();
  api.history.set(script.runId, script.events);
  await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  await flush();
  return api;
}

const longText = `${'word '.repeat(60)}THE END OF A LONG MESSAGE`;

function twoStepRun(): RunScript {
  const s = new RunScript('r1').start(longText);
  s.addStep({
    content: 'first',
    calls: [{ name: 'bash', args: { command: 'ls' } }],
    usage: { prompt: 318, completion: 5 },
    request: {
      system: 'You are helpful.',
      params: { temperature: 0.2, max_tokens: 512 },
      toolChoice: 'auto',
      toolsHash: 'abc123',
      tools,
    },
  });
  s.endStep();
  s.addStep({
    content: 'second',
    request: {
      params: { temperature: 0.2, max_tokens: 512 },
      toolChoice: 'auto',
      toolsHash: 'abc123',
    },
  });
  s.endStep();
  return s;
}

describe('Inspector: the exact request', () => {
  it('shows parameters and the tools by reference, one explained token figure', async () => {
    await openRun(twoStepRun());
    fireEvent.click(screen.getAllByTestId('timeline-step')[1]!);
    const view = screen.getByTestId('request-view');
    const params = within(view).getByTestId('request-params').textContent;
    expect(params).toContain('temperature0.2');
    expect(params).toContain('max_tokens512');
    expect(params).toContain('tool_choiceauto');
    // step 2 named the list by hash only: resolved from step 1's request
    const tool = within(view).getByTestId('request-tool');
    expect(tool.getAttribute('data-tool')).toBe('bash');
    expect(tool.textContent).toContain('"command"');
    const figure = within(view).getByTestId('token-figure');
    expect(figure.getAttribute('data-estimate')).toBe('false');
    expect(figure.textContent).toMatch(/200 prompt tokens/);
    expect(figure.textContent).toMatch(/from the reply's usage/);
    expect(screen.getByTestId('inspector').textContent).not.toMatch(/guard counted/);
  });

  it("'Open in playground' opens that model call's request on #/playground/RUN/SEQ", async () => {
    const script = twoStepRun();
    await openRun(script);
    fireEvent.click(screen.getAllByTestId('timeline-step')[1]!);
    const open = within(screen.getByTestId('request-view')).getByTestId('playground-open');
    const second = script.events.filter((e) => e.type === 'llm.requested')[1]!;
    expect(open.getAttribute('data-seq')).toBe(String(second.seq));
    await act(async () => fireEvent.click(open));
    await flush();
    expect(window.location.hash).toBe(`#/playground/${script.runId}/${second.seq}`);
    expect(screen.getByTestId('playground-page')).toBeTruthy();
  });

  it('opens a message in place instead of moving the timeline', async () => {
    await openRun(twoStepRun());
    fireEvent.click(screen.getAllByTestId('timeline-step')[1]!);
    const before = document.querySelector('[aria-selected="true"][data-item-id]');
    const task = screen.getAllByTestId('context-message')[0]!;
    const details = task.querySelector('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(task.querySelector('summary')!);
    expect(details.open).toBe(true);
    expect(task.textContent).toContain('THE END OF A LONG MESSAGE');
    expect(document.querySelector('[aria-selected="true"][data-item-id]')).toBe(before);
  });

  it('shows the raw JSON body, copies it, and diffs it against the previous step', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (t: string) => void written.push(t) },
      configurable: true,
    });
    await openRun(twoStepRun());
    fireEvent.click(screen.getAllByTestId('timeline-step')[1]!);
    const tab = (name: string) =>
      screen.getAllByTestId('request-tab').find((t) => t.getAttribute('data-tab') === name)!;
    fireEvent.click(tab('raw'));
    const raw = JSON.parse(screen.getByTestId('request-raw').querySelector('pre')!.textContent!);
    expect(raw).toMatchObject({
      model: 'gpt-test',
      temperature: 0.2,
      max_tokens: 512,
      tool_choice: 'auto',
      tools,
    });
    expect(raw.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
    expect(raw.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    await act(async () =>
      fireEvent.click(within(screen.getByTestId('request-raw')).getByTestId('copy-button')),
    );
    expect(JSON.parse(written[0]!)).toEqual(raw);

    fireEvent.click(tab('diff'));
    const diff = screen.getByTestId('request-diff');
    expect(diff.getAttribute('data-previous-step')).toBe('1');
    const added = [...diff.querySelectorAll('.diff-added')].map((e) => e.textContent).join('');
    expect(added).toContain('"content": "first"');
    expect(added).toContain('"tool_call_id": "call_1"');
    expect(diff.querySelectorAll('.diff-removed').length).toBe(0);

    fireEvent.click(tab('response'));
    const reply = JSON.parse(
      screen.getByTestId('request-response').querySelector('pre')!.textContent!,
    );
    expect(reply).toMatchObject({
      content: 'second',
      finish_reason: 'stop',
      usage: { prompt_tokens: 200, completion_tokens: 20 },
    });
  });

  it('labels an estimate as such, with how it was made', async () => {
    const s = new RunScript('r1').start('t');
    s.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    s.emit({
      type: 'llm.requested',
      agent: 'manus',
      step: 1,
      model: 'gpt-test',
      messageCount: 1,
      inputTokens: 2033,
    });
    await openRun(s);
    fireEvent.click(screen.getAllByTestId('timeline-step')[0]!);
    const figure = screen.getByTestId('token-figure');
    expect(figure.getAttribute('data-estimate')).toBe('true');
    expect(figure.textContent).toMatch(/≈2,033 prompt tokens/);
    expect(figure.textContent).toContain('estimate');
    expect(figure.textContent).toMatch(/runtime's estimate before sending/);
    // an old run: no parameters recorded, said so
    expect(screen.getByTestId('request-params').textContent).toMatch(/not recorded/);
  });
});

describe('Live tool output', () => {
  it("shows a running command's output on its card and in the inspector as it comes", async () => {
    const api = createMemoryApi();
    await renderApp(api);
    const s = new RunScript('live').start('t');
    act(() => api.push(s.events.splice(0)));
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    s.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    s.emit({
      type: 'tool.started',
      agent: 'manus',
      step: 1,
      toolCallId: 'call_x',
      name: 'bash',
      args: { command: 'make' },
    });
    const output = (stream: 'stdout' | 'stderr', text: string) =>
      s.emit({
        type: 'tool.output',
        agent: 'manus',
        step: 1,
        toolCallId: 'call_x',
        name: 'bash',
        stream,
        text,
      });
    output('stdout', 'compiling 1\n');
    act(() => api.push(s.events.splice(0)));
    const card = screen.getByTestId('tool-call');
    expect(within(card).getByTestId('live-output').textContent).toContain('compiling 1');
    output('stdout', 'compiling 2\n');
    output('stderr', 'warning: x\n');
    act(() => api.push(s.events.splice(0)));
    const live = within(card).getByTestId('live-output');
    expect(live.textContent).toContain('compiling 2');
    expect(live.querySelector('.terminal-stderr')!.textContent).toBe('warning: x\n');
    fireEvent.click(card);
    const panel = within(screen.getByTestId('inspector')).getByTestId('live-output');
    expect(panel.getAttribute('data-running')).toBe('true');
    expect(panel.textContent).toContain('compiling 1\ncompiling 2\nwarning: x');
    s.emit({
      type: 'tool.finished',
      agent: 'manus',
      step: 1,
      toolCallId: 'call_x',
      name: 'bash',
      ok: true,
      output: 'compiling 1\ncompiling 2',
      exitCode: 0,
      durationMs: 900,
    });
    act(() => api.push(s.events.splice(0)));
    expect(within(screen.getByTestId('tool-call')).queryByTestId('live-output')).toBeNull();
    expect(
      within(screen.getByTestId('inspector'))
        .getByTestId('live-output')
        .getAttribute('data-running'),
    ).toBe('false');
  });
});

describe('Inspector: with nothing selected', () => {
  it('lists every key the timeline answers to, not just moving and search', async () => {
    await openRun(twoStepRun());
    const hint = screen.getByTestId('inspector-keys').textContent ?? '';
    // use-timeline-keys.ts: moves, jumps (Shift goes back), expand, search, pause and stop
    for (const key of [
      'j',
      'k',
      'Home',
      'End',
      ']',
      '[',
      'e',
      'd',
      's',
      'Shift',
      'Enter',
      '/',
      'Esc',
      'p',
      'X',
    ]) {
      expect(hint, key).toContain(key);
    }
    expect(hint).toMatch(/error .* duplicate .* stuck/);
  });
});
