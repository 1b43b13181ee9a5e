/**
 * The run view's "Server logs" panel: `mcp.log` lines with server, level, logger, text
 * and time; a level filter (info and above by default); the count the servers' rate limit
 * left out; only the rows in view rendered, even for thousands of lines. And the note of
 * a run started from an MCP prompt.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MCP_LOG_LEVELS } from '@shared/events';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

async function showRun(script: RunScript) {
  const api = createMemoryApi();
  const app = await renderApp(api);
  act(() => api.push(script.events));
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  return { api, app };
}

describe('server log panel', () => {
  it('lists the lines at info and above, filters by level, counts what was left out', async () => {
    const script = new RunScript('logs').start('t');
    script.emit({ type: 'mcp.log', server: 'everything', level: 'debug', data: 'noise' });
    script.emit({
      type: 'mcp.log',
      server: 'everything',
      level: 'info',
      logger: 'everything-server',
      data: 'Roots updated: 1 root(s) received from client',
    });
    script.emit({ type: 'mcp.log', server: 'git', level: 'error', data: 'boom', omitted: 12 });
    await showRun(script);
    const panel = screen.getByTestId('mcp-log-panel');
    expect(panel.textContent).toContain('Server logs');
    expect(panel.getAttribute('data-count')).toBe('3');
    expect(panel.getAttribute('data-shown')).toBe('2');
    expect(screen.getByTestId('mcp-log-omitted').getAttribute('data-omitted')).toBe('12');
    // collapsed: no rows until opened
    expect(screen.queryAllByTestId('mcp-log-line')).toHaveLength(0);
    await act(async () => {
      (panel as HTMLDetailsElement).open = true;
      fireEvent(panel, new Event('toggle'));
    });
    const rows = () => screen.getAllByTestId('mcp-log-line');
    expect(rows().map((r) => r.getAttribute('data-level'))).toEqual(['info', 'error']);
    expect(rows()[0]!.textContent).toContain('everything');
    expect(rows()[0]!.textContent).toContain('everything-server');
    expect(rows()[0]!.textContent).toContain('Roots updated: 1 root(s) received from client');
    expect(rows()[0]!.textContent).toMatch(/\d\d:\d\d:\d\d/);
    expect(rows()[1]!.textContent).toContain('+12 left out before');

    const level = screen.getByTestId('mcp-log-level');
    expect((level as HTMLSelectElement).value).toBe('info');
    expect(
      within(level)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual([...MCP_LOG_LEVELS]);
    await act(async () => fireEvent.change(level, { target: { value: 'debug' } }));
    expect(rows().map((r) => r.getAttribute('data-level'))).toEqual(['debug', 'info', 'error']);
    await act(async () => fireEvent.change(level, { target: { value: 'error' } }));
    expect(rows().map((r) => r.getAttribute('data-server'))).toEqual(['git']);
  });

  it('renders only the rows in view for thousands of lines, and follows new ones', async () => {
    const script = new RunScript('many').start('t');
    for (let i = 0; i < 5000; i++)
      script.emit({ type: 'mcp.log', server: 's', level: 'info', data: `line ${i}` });
    const { api } = await showRun(script);
    const panel = screen.getByTestId('mcp-log-panel');
    await act(async () => {
      (panel as HTMLDetailsElement).open = true;
      fireEvent(panel, new Event('toggle'));
    });
    expect(panel.getAttribute('data-count')).toBe('5000');
    expect(screen.getAllByTestId('mcp-log-line').length).toBeLessThanOrEqual(40);
    // scrolled to the end, the last lines are the ones rendered
    const list = panel.querySelector('.mcp-log-list')!;
    await act(async () => {
      list.scrollTop = 4990 * 20;
      fireEvent.scroll(list);
    });
    const texts = screen.getAllByTestId('mcp-log-line').map((r) => r.textContent ?? '');
    expect(texts.some((t) => t.includes('line 4999'))).toBe(true);
    expect(texts.length).toBeLessThanOrEqual(40);

    const next = script.emit({ type: 'mcp.log', server: 's', level: 'warning', data: 'late' });
    act(() => api.push([next]));
    expect(screen.getByTestId('mcp-log-panel').getAttribute('data-count')).toBe('5001');
  });
});

describe('a run from an MCP prompt', () => {
  it('says which prompt gave the task, with its arguments', async () => {
    const script = new RunScript('from-prompt', 'mcp');
    script.emit({
      type: 'run.started',
      agent: 'mcp',
      task: 'What is the weather in Paris?',
      model: 'm',
      maxSteps: 5,
      sessionId: 's-test',
      prompt: { server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } },
    });
    await showRun(script);
    const note = screen.getByTestId('run-prompt-origin');
    expect(note.textContent).toBe('from MCP prompt everything/args-prompt (city = Paris)');
  });
});
