import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi, type MemoryApi } from '../testing/memory-api';
import { flush, renderApp } from '../testing/render-app';
import { RunScript } from '../testing/run-script';
import { formatRoute, parseRoute, routeOf } from './route';

function addRun(api: MemoryApi, runId: string, task: string, startTs: number) {
  const script = new RunScript(runId, 'manus', { maxSteps: 5, startTs }).start(task);
  for (let i = 1; i <= 3; i++) {
    script.addStep({ content: `step ${i} of ${task}` });
    script.endStep();
  }
  script.finish();
  api.history.set(runId, script.events);
  return script.events;
}

const selectedId = () =>
  document.querySelector('[aria-selected="true"][data-item-id]')?.getAttribute('data-item-id');

describe('routes', () => {
  it('round-trip and refuse what is not a route', () => {
    for (const hash of [
      '#/new',
      '#/settings',
      '#/run/r-1',
      '#/run/r-1/event/12',
      '#/compare/a,b',
      '#/batch',
      '#/batch/b-20261201-1',
      '#/playground/r-1/7',
    ]) {
      expect(formatRoute(parseRoute(hash)!)).toBe(hash);
    }
    expect(parseRoute('#/run/..')).toBeNull();
    expect(parseRoute('#/run/a%2Fb')).toBeNull();
    expect(parseRoute('#/run/r/event/-3')).toEqual({ page: 'run', runId: 'r' });
    expect(parseRoute('')).toBeNull();
    expect(parseRoute('#/playground/r-1/0')).toBeNull();
    expect(parseRoute('#/playground/../3')).toBeNull();
    // a batch link with a bad id still opens the Batch view, on its list
    expect(parseRoute('#/batch/..')).toEqual({ page: 'batch' });
  });

  it('name the Batch view and its batch, as the store shows them', () => {
    const state = {
      view: 'batch' as const,
      selectedRunId: 'r',
      selectedItemId: null,
      compareRunIds: [],
      batchId: 'b-1',
      agentName: null,
    };
    expect(formatRoute(routeOf(state))).toBe('#/batch/b-1');
    expect(formatRoute(routeOf({ ...state, batchId: null }))).toBe('#/batch');
  });

  it('name the Agents page and the agent its editor shows, both ways', () => {
    const state = {
      view: 'agents' as const,
      selectedRunId: null,
      selectedItemId: null,
      compareRunIds: [],
      batchId: null,
      agentName: 'my-agent',
    };
    expect(formatRoute(routeOf(state))).toBe('#/agents/my-agent');
    expect(formatRoute(routeOf({ ...state, agentName: null }))).toBe('#/agents');
    expect(parseRoute('#/agents/my-agent')).toEqual({ page: 'agents', name: 'my-agent' });
    expect(parseRoute('#/agents')).toEqual({ page: 'agents' });
    // a name no agent can have opens the list
    expect(parseRoute('#/agents/..%2Fx')).toEqual({ page: 'agents' });
  });
});

describe('the URL names the run and the selected row', () => {
  it('opens the run and row a link names, once its events have arrived', async () => {
    const api = createMemoryApi();
    const events = addRun(api, 'run-a', 'first task', 1_700_000_000_000);
    const target = events.find((e) => e.type === 'memory.appended' && e.seq > 10)!;
    window.history.replaceState(null, '', `#/run/run-a/event/${target.seq}`);
    await renderApp(api);
    await flush();
    expect(screen.getByRole('region', { name: 'Run' })).toBeTruthy();
    expect(selectedId()).toBe(String(target.seq));
    expect(window.location.hash).toBe(`#/run/run-a/event/${target.seq}`);
  });

  it('writes the selection into the URL; another run is a new entry that Back leaves', async () => {
    const api = createMemoryApi();
    addRun(api, 'run-a', 'first task', 1_700_000_000_000);
    addRun(api, 'run-b', 'second task', 1_700_000_100_000);
    const { store } = await renderApp(api);
    const rowOf = (runId: string) =>
      document.querySelector<HTMLElement>(`[data-run-id="${runId}"]`)!;
    act(() => fireEvent.click(rowOf('run-a')));
    await flush();
    expect(window.location.hash).toBe('#/run/run-a');
    const lengthBefore = window.history.length;
    act(() => store.getState().selectItem(3));
    expect(window.location.hash).toBe('#/run/run-a/event/3');
    expect(window.history.length).toBe(lengthBefore); // a row replaces the entry
    act(() => fireEvent.click(rowOf('run-b')));
    await flush();
    expect(window.location.hash).toBe('#/run/run-b');
    expect(window.history.length).toBe(lengthBefore + 1);
    // Back: the browser restores the previous URL and fires popstate
    window.history.replaceState(null, '', '#/run/run-a/event/3');
    await act(async () => {
      window.dispatchEvent(new PopStateEvent('popstate'));
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(store.getState().selectedRunId).toBe('run-a');
    expect(store.getState().selectedItemId).toBe(3);
  });
});

describe('history rename and delete', () => {
  it('renames the run shown, then deletes it and goes back to New run', async () => {
    const api = createMemoryApi();
    addRun(api, 'run-a', 'first task', 1_700_000_000_000);
    addRun(api, 'run-b', 'second task', 1_700_000_100_000);
    await renderApp(api);
    act(() => fireEvent.click(document.querySelector<HTMLElement>('[data-run-id="run-a"]')!));
    await flush();
    act(() => fireEvent.click(screen.getByTestId('history-rename')));
    fireEvent.change(screen.getByTestId('history-rename-input'), {
      target: { value: 'Baseline' },
    });
    await act(async () => fireEvent.click(screen.getByTestId('history-rename-save')));
    await flush();
    expect(api.calls.find((c) => c.method === 'renameRun')?.input).toEqual({
      runId: 'run-a',
      title: 'Baseline',
    });
    const titles = screen.getAllByTestId('history-title').map((t) => t.textContent);
    expect(titles).toEqual(['second task', 'Baseline']);
    expect(screen.getByTestId('run-title').textContent).toBe('Baseline · first task');

    act(() => fireEvent.click(screen.getByTestId('history-delete')));
    await act(async () => fireEvent.click(screen.getByTestId('history-delete-confirm')));
    await flush();
    expect(api.calls.find((c) => c.method === 'deleteRun')?.input).toEqual({ runId: 'run-a' });
    expect(screen.getAllByTestId('history-title').map((t) => t.textContent)).toEqual([
      'second task',
    ]);
    expect(screen.getByTestId('task-input')).toBeTruthy();
    expect(window.location.hash).toBe('#/new');
  });
});

describe('resizable panes', () => {
  it('remembers the widths between sessions and ignores a damaged entry', async () => {
    localStorage.removeItem('workbench.panes');
    const api = createMemoryApi();
    addRun(api, 'run-a', 'first task', 1_700_000_000_000);
    const first = await renderApp(api);
    const layout = () => document.querySelector<HTMLElement>('.layout')!;
    expect(layout().style.getPropertyValue('--sidebar-width')).toBe('280px');
    const splitter = screen.getByTestId('splitter-sidebar');
    fireEvent.keyDown(splitter, { key: 'ArrowRight' });
    fireEvent.keyDown(splitter, { key: 'ArrowRight' });
    expect(layout().style.getPropertyValue('--sidebar-width')).toBe('312px');
    act(() => fireEvent.click(document.querySelector<HTMLElement>('[data-run-id="run-a"]')!));
    await flush();
    fireEvent.keyDown(screen.getByTestId('splitter-inspector'), { key: 'ArrowLeft' });
    expect(layout().style.getPropertyValue('--inspector-width')).toBe('396px');
    first.unmount();

    const second = await renderApp(api);
    expect(layout().style.getPropertyValue('--sidebar-width')).toBe('312px');
    expect(layout().style.getPropertyValue('--inspector-width')).toBe('396px');
    screen.getByTestId('splitter-sidebar'); // still there after a reload
    localStorage.setItem('workbench.panes', '{"sidebar": 5, "inspector": "wide"');
    second.unmount();
    await renderApp(api);
    expect(layout().style.getPropertyValue('--sidebar-width')).toBe('280px');
  });
});
