import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

async function openRun(build: (s: RunScript) => void) {
  const api = createMemoryApi();
  const script = new RunScript('r1').start('task');
  build(script);
  api.history.set('r1', script.events);
  const app = await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  await flush();
  return { api, script, ...app };
}

const selected = () => document.querySelector('[aria-selected="true"][data-item-id]');

describe('Timeline navigation', () => {
  it('moves with j/k and arrows, expands with Enter, deselects with Escape', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    await openRun((s) => {
      s.addStep({ content: long });
      s.endStep();
    });
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(selected()?.getAttribute('data-kind')).toBe('run');
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(selected()?.getAttribute('data-testid')).toBe('timeline-message'); // the task
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(selected()?.getAttribute('data-testid')).toBe('timeline-step');
    fireEvent.keyDown(document.body, { key: 'j' });
    const message = selected()!;
    expect(message.getAttribute('data-role')).toBe('assistant');
    expect(message.textContent).not.toContain('line 29');
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(selected()!.textContent).toContain('line 29');
    fireEvent.keyDown(document.body, { key: 'k' });
    expect(selected()?.getAttribute('data-testid')).toBe('timeline-step');
    // Enter on a step folds it
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(
      screen
        .queryAllByTestId('timeline-message')
        .some((m) => m.getAttribute('data-role') === 'assistant'),
    ).toBe(false);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(selected()).toBeNull();
  });

  it('focuses the search with /, filters to the matches on request; keys typed there do not navigate', async () => {
    await openRun((s) => {
      s.addStep({ content: 'alpha', calls: [{ name: 'bash', args: { command: 'ls' } }] });
      s.addStep({
        content: 'beta',
        calls: [{ name: 'python_execute', args: { code: 'x' }, error: 'boom' }],
      });
    });
    fireEvent.keyDown(document.body, { key: '/' });
    const search = screen.getByTestId('filter-search');
    expect(document.activeElement).toBe(search);
    fireEvent.change(search, { target: { value: 'beta' } });
    fireEvent.keyDown(search, { key: 'j' });
    expect(selected()).toBeNull();
    fireEvent.click(screen.getByTestId('search-only'));
    const messages = screen.getAllByTestId('timeline-message');
    expect(messages.map((m) => m.textContent)).toEqual([expect.stringContaining('beta')]);
    fireEvent.click(screen.getByTestId('filter-clear'));
    fireEvent.click(screen.getByTestId('filter-errors'));
    expect(screen.getAllByTestId('tool-call').map((t) => t.getAttribute('data-status'))).toEqual([
      'error',
    ]);
    fireEvent.click(screen.getByTestId('filter-errors'));
    fireEvent.change(screen.getByTestId('filter-tool'), { target: { value: 'bash' } });
    expect(screen.getAllByTestId('tool-call').map((t) => t.getAttribute('data-tool'))).toEqual([
      'bash',
    ]);
    fireEvent.change(screen.getByTestId('filter-tool'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('filter-role-tool'));
    expect(screen.queryAllByTestId('timeline-message')).toHaveLength(0);
    expect(screen.getAllByTestId('tool-call')).toHaveLength(2);
  });

  it('says so when the filters hide every row, and clears them', async () => {
    await openRun((s) => s.addStep({ content: 'alpha' }));
    fireEvent.change(screen.getByTestId('filter-search'), {
      target: { value: 'nothing like this' },
    });
    expect(screen.getByTestId('search-count').textContent).toBe('no match');
    fireEvent.click(screen.getByTestId('search-only'));
    expect(screen.getByTestId('timeline-empty')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('timeline-empty')).getByRole('button'));
    expect(screen.getAllByTestId('timeline-message').length).toBeGreaterThan(0);
  });

  it('search counts the matches and steps through them with Enter and Shift+Enter, wrapping', async () => {
    await openRun((s) => {
      s.addStep({ content: 'needle one' });
      s.addStep({ content: 'hay' });
      s.addStep({ content: 'needle two, needle three' });
    });
    const search = screen.getByTestId('filter-search');
    fireEvent.change(search, { target: { value: 'NEEDLE' } });
    const count = screen.getByTestId('search-count');
    expect(count.getAttribute('data-rows')).toBe('2');
    expect(count.getAttribute('data-matches')).toBe('3');
    expect(count.textContent).toBe('2 rows · 3 matches');
    // rows without a match stay (search highlights; it does not filter)
    expect(screen.getAllByText(/hay/).length).toBeGreaterThan(0);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(selected()?.textContent).toContain('needle one');
    expect(count.textContent).toBe('1 of 2 rows · 3 matches');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(selected()?.textContent).toContain('needle two');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(selected()?.textContent).toContain('needle one');
    fireEvent.keyDown(search, { key: 'Enter', shiftKey: true });
    expect(selected()?.textContent).toContain('needle two');
    fireEvent.click(screen.getByTestId('search-prev'));
    expect(count.getAttribute('data-place')).toBe('1');
  });

  it('jumps to the next and previous error, duplicate, stuck marker and step; Home and End', async () => {
    await openRun((s) => {
      s.addStep({ content: 'same answer' });
      s.endStep();
      s.addStep({
        content: 'ok',
        calls: [{ name: 'bash', args: { command: 'x' }, error: 'boom' }],
      });
      s.endStep();
      s.addStep({ content: 'same answer' });
      s.stuck('content', [1]);
      s.endStep();
      s.addStep({
        content: 'last',
        calls: [{ name: 'bash', args: { command: 'y' }, error: 'bad' }],
      });
      s.endStep();
      s.finish();
    });
    const key = (k: string) => fireEvent.keyDown(document.body, { key: k });
    key('e');
    expect(selected()?.getAttribute('data-status')).toBe('error');
    expect(selected()?.textContent).toContain('boom');
    key('e');
    expect(selected()?.textContent).toContain('bad');
    key('E');
    expect(selected()?.textContent).toContain('boom');
    key('d');
    expect(selected()?.getAttribute('data-duplicate')).toBe('true');
    key('s');
    expect(selected()?.getAttribute('data-testid')).toBe('stuck-marker');
    key('[');
    expect(selected()?.getAttribute('data-step')).toBe('3');
    key(']');
    expect(selected()?.getAttribute('data-step')).toBe('4');
    key('Home');
    expect(selected()?.getAttribute('data-kind')).toBe('run');
    key('End');
    expect(selected()?.getAttribute('data-testid')).toBe('run-finished');
    key('D');
    expect(selected()?.getAttribute('data-duplicate')).toBe('true');
  });

  it('the minimap marks the error and the waterfall has a bar per step; both navigate', async () => {
    await openRun((s) => {
      s.addStep({ content: 'one' });
      s.endStep(300);
      s.addStep({ content: 'two', calls: [{ name: 'bash', args: { c: 1 }, error: 'boom' }] });
      s.endStep(100);
      s.finish();
    });
    const marks = screen.getAllByTestId('minimap-mark');
    expect(marks.map((m) => m.getAttribute('data-kind'))).toEqual(['error']);
    fireEvent.click(marks[0]!);
    expect(selected()?.getAttribute('data-status')).toBe('error');
    const bars = screen.getAllByTestId('waterfall-bar');
    expect(bars).toHaveLength(2);
    expect(bars[0]!.getAttribute('title')).toMatch(/^step 1: model .*, tools .*, loop /);
    expect(screen.queryAllByTestId('waterfall-wait')).toHaveLength(0);
    fireEvent.click(bars[0]!);
    expect(selected()?.getAttribute('data-step')).toBe('1');
    expect(bars[0]!.className).toContain('is-selected');
  });

  it("the waterfall draws a step's waits as their own segment and names each kind", async () => {
    await openRun((s) => {
      s.addStep({ content: 'one' });
      s.endStep(500);
      // 4 s from request to answer: 2 s queued, 1.2 s backoff, 0.8 s the model
      s.addStep({ content: 'two', modelMs: 4_000, queuedMs: 2_000, retryDelays: [1_200] });
      s.endStep(4_100);
    });
    const bars = screen.getAllByTestId('waterfall-bar');
    expect(bars[0]!.getAttribute('data-wait-ms')).toBe('0');
    expect(within(bars[0]!).queryByTestId('waterfall-wait')).toBeNull();
    const waited = bars[1]!;
    expect(waited.getAttribute('title')).toBe(
      'step 2: model 800 ms, tools 0 ms; waited 3.2 s: 2.0 s queued for the model, ' +
        '1.2 s retry backoff; loop 100 ms, 1 retry',
    );
    expect(waited.getAttribute('data-wait-ms')).toBe('3200');
    // heights relative to the longest bar (this one, 4.1 s)
    const segment = within(waited).getByTestId('waterfall-wait');
    expect(parseFloat(segment.style.height)).toBeCloseTo((3_200 / 4_100) * 100, 1);
    const model = waited.querySelector<HTMLElement>('.wf-model')!;
    expect(parseFloat(model.style.height)).toBeCloseTo((800 / 4_100) * 100, 1);
    // the reply's own line says how much of its 4 s was waiting, and so does the inspector
    const reply = screen
      .getAllByTestId('timeline-message')
      .find((m) => m.textContent?.includes('two'))!;
    expect(reply.textContent).toContain('4.0 s (3.2 s of it waiting)');
    await act(async () => fireEvent.click(reply));
    expect(screen.getByTestId('inspector').textContent).toContain('4.0 s (3.2 s of it waiting)');
  });

  it('renders replies as markdown, code arguments as code, edits as diffs, output with line numbers', async () => {
    await openRun((s) => {
      s.addStep({
        content: 'I **run** this:\n\n- one\n- two',
        calls: [
          {
            name: 'python_execute',
            args: { code: 'import os\nprint(os.getcwd())' },
            output: 'a\nb',
          },
        ],
      });
      s.addStep({
        content: 'Fix',
        calls: [
          {
            name: 'str_replace_editor',
            args: {
              command: 'str_replace',
              path: '/w/g.py',
              old_str: 'x = nme',
              new_str: 'x = name',
            },
          },
        ],
      });
    });
    const reply = screen
      .getAllByTestId('timeline-message')
      .find((m) => m.getAttribute('data-role') === 'assistant')!;
    expect(reply.querySelector('.markdown strong')?.textContent).toBe('run');
    expect([...reply.querySelectorAll('.markdown li')].map((li) => li.textContent)).toEqual([
      'one',
      'two',
    ]);

    const [python, editor] = screen.getAllByTestId('tool-call');
    // collapsed: the code's first line, not escaped JSON
    expect(python!.querySelector('.tool-args-inline')?.textContent).toBe('import os');
    fireEvent.click(within(python!).getByRole('button', { name: 'Expand tool call' }));
    const code = within(screen.getAllByTestId('tool-call')[0]!).getByTestId('tool-args-code');
    expect(code.getAttribute('data-language')).toBe('python');
    expect(code.textContent).toBe('import os\nprint(os.getcwd())');
    expect(code.textContent).not.toContain('\\n');

    fireEvent.click(
      within(screen.getAllByTestId('tool-call')[0]!).getByTestId('output-line-numbers'),
    );
    const numbered = screen.getAllByTestId('tool-call')[0]!.querySelectorAll('.numbered-line .ln');
    expect([...numbered].map((n) => n.textContent)).toEqual(['1', '2']);
    fireEvent.click(within(screen.getAllByTestId('tool-call')[0]!).getByTestId('output-wrap'));
    expect(
      screen.getAllByTestId('tool-call')[0]!.querySelector('.code.output')?.className,
    ).toContain('is-nowrap');

    fireEvent.click(within(editor!).getByRole('button', { name: 'Expand tool call' }));
    const diff = within(screen.getAllByTestId('tool-call')[1]!).getByTestId('tool-args-diff');
    expect([...diff.querySelectorAll('.diff-removed')].map((l) => l.textContent)).toEqual([
      '-x = nme',
    ]);
    expect([...diff.querySelectorAll('.diff-added')].map((l) => l.textContent)).toEqual([
      '+x = name',
    ]);
  });

  it('a duplicate link jumps to the earlier response even when a filter hides it', async () => {
    await openRun((s) => {
      s.addStep({ content: 'same answer' });
      s.addStep({ content: 'same answer' });
    });
    fireEvent.change(screen.getByTestId('filter-search'), { target: { value: 'zzz' } });
    fireEvent.change(screen.getByTestId('filter-search'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('filter-role-assistant'));
    fireEvent.click(screen.getByTestId('filter-duplicates'));
    const dup = screen
      .getAllByTestId('timeline-message')
      .find((m) => m.getAttribute('data-duplicate') === 'true')!;
    fireEvent.click(within(dup).getByTestId('duplicate-link'));
    expect(selected()?.getAttribute('data-index')).toBe('1');
    expect(screen.getByTestId('inspector').textContent).toContain('assistant message #1');
  });

  it('shows the context the model received for the selected step, with token estimates', async () => {
    await openRun((s) => {
      s.addStep({ content: 'first', calls: [{ name: 'bash', args: { command: 'ls' } }] });
      s.endStep();
      s.addStep({ content: 'second' });
      s.endStep();
    });
    const steps = screen.getAllByTestId('timeline-step');
    fireEvent.click(steps[1]!);
    const context = screen.getByTestId('context-at-step');
    expect(
      within(context)
        .getAllByTestId('context-message')
        .map((m) => [m.getAttribute('data-index'), m.getAttribute('data-role')]),
    ).toEqual([
      ['0', 'user'],
      ['1', 'assistant'],
      ['2', 'tool'],
    ]);
    expect(screen.getByTestId('context-total').textContent).toMatch(/3 memory messages · to/);
    fireEvent.click(
      within(within(context).getAllByTestId('context-message')[2]!).getByTestId('context-show'),
    );
    expect(selected()?.getAttribute('data-testid')).toBe('tool-call');
  });

  it('folds streamed text into the message as it arrives', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    const script = new RunScript('live').start('t');
    act(() => api.push(script.events.splice(0)));
    await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
    script.emit({ type: 'llm.delta', agent: 'manus', step: 1, text: 'Hel' });
    act(() => api.push(script.events.splice(0)));
    const streaming = document.querySelector('[data-streaming="true"]')!;
    expect(streaming.textContent).toContain('Hel');
    script.emit({ type: 'llm.delta', agent: 'manus', step: 1, text: 'lo' });
    act(() => api.push(script.events.splice(0)));
    expect(document.querySelector('[data-streaming="true"]')!.textContent).toContain('Hello');
    expect(screen.getByTestId('follow-tail').getAttribute('aria-pressed')).toBe('true');
  });
});

describe('Timeline tool progress', () => {
  it('shows the progress a running tool reported on its card', async () => {
    await openRun((s) => {
      s.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
      s.emit({
        type: 'tool.started',
        agent: 'manus',
        step: 1,
        toolCallId: 'call_long',
        name: 'mcp_everything_trigger-long-running-operation',
        args: { duration: 8 },
      });
      s.emit({
        type: 'tool.progress',
        agent: 'manus',
        step: 1,
        toolCallId: 'call_long',
        name: 'mcp_everything_trigger-long-running-operation',
        progress: 3,
        total: 4,
        message: 'almost there',
      });
    });
    const card = screen.getByTestId('tool-call');
    expect(card.getAttribute('data-status')).toBe('running');
    expect(within(card).getByTestId('tool-progress').textContent).toBe(
      '3 of 4 (75 %): almost there',
    );
  });
});
