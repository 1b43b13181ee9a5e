import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveWorkspaceView, WorkspaceTreeView } from '@shared/ipc';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

const listedAt = Date.UTC(2026, 11, 2, 9, 30, 0);

function liveView(size: number, unavailable?: string): LiveWorkspaceView {
  return unavailable !== undefined
    ? { runId: 'run-1', listedAt, since: 0, entries: [], deleted: [], unavailable }
    : {
        runId: 'run-1',
        listedAt,
        since: 1,
        entries: [
          { path: 'fix.py', kind: 'file', size, mtimeMs: size, change: 'changed' },
          { path: 'link', kind: 'symlink', size: 11, mtimeMs: 1 },
        ],
        deleted: ['old.py'],
      };
}

const checkpointTree = (step: number): WorkspaceTreeView => ({
  runId: 'run-1',
  step,
  asOf: 1,
  entries: [{ path: 'from-checkpoint.py', kind: 'file', size: 3 }],
  deleted: [],
  checkpoints: [1],
});

/** A run going on at step 2 (step 1 has a checkpoint), its Files panel open. */
async function openPanel(live: () => LiveWorkspaceView) {
  const api = createMemoryApi();
  api.override('getLiveFiles', async () => live());
  api.override('getLiveFile', async ({ path }) => ({
    path,
    readAt: listedAt,
    size: 10,
    kind: 'text',
    text: 'x = 1 + 1\n',
  }));
  api.override('getRunFiles', async ({ step }) => checkpointTree(step));
  const { store } = await renderApp(api);
  const script = new RunScript('run-1', 'manus').start('fix the bug');
  script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
  script.emit({ type: 'step.started', agent: 'manus', step: 2, maxSteps: 20 });
  act(() => api.push(script.events.splice(0)));
  act(() => store.getState().selectRun('run-1'));
  fireEvent.click(screen.getByTestId('files-toggle'));
  return { api, script };
}

const methodCalls = (api: { calls: { method: string; input: unknown }[] }, method: string) =>
  api.calls.filter((c) => c.method === method).map((c) => c.input);

describe('the Files panel of a running run', () => {
  it('asks for the live tree of the running step, labels it live with the time, and reads an opened file now', async () => {
    let size = 10;
    const { api, script } = await openPanel(() => liveView(size));
    const label = await screen.findByTestId('files-live');
    expect(label.textContent).toContain('live');
    expect(label.textContent).toContain(new Date(listedAt).toLocaleTimeString());
    expect(label.textContent).toContain('checkpoint of step 1');
    expect(screen.getByTestId('files-panel').getAttribute('data-live')).toBe('true');
    expect(methodCalls(api, 'getLiveFiles')[0]).toEqual({ runId: 'run-1' });
    // the running step has no checkpoint: its tree is not asked of the checkpoints
    expect(methodCalls(api, 'getRunFiles')).toEqual([]);
    const entries = screen.getAllByTestId('files-entry');
    expect(
      entries.map((e) => `${e.getAttribute('data-path')} ${e.getAttribute('data-kind')}`),
    ).toEqual(['fix.py file', 'link symlink']);
    expect(entries[0]!.getAttribute('data-change')).toBe('changed');
    expect(screen.getByText('Deleted since then: old.py')).toBeTruthy();

    fireEvent.click(within(entries[0]!).getByText('fix.py'));
    const viewer = await screen.findByTestId('files-viewer');
    await waitFor(() => expect(viewer.textContent).toContain('x = 1 + 1'));
    expect(methodCalls(api, 'getLiveFile')).toEqual([
      { runId: 'run-1', path: 'fix.py', download: false },
    ]);

    // listed again while shown: the file grew, so it is read again
    size = 19;
    await waitFor(() => expect(methodCalls(api, 'getLiveFile').length).toBeGreaterThanOrEqual(2), {
      timeout: 4000,
    });
    expect(methodCalls(api, 'getLiveFiles').length).toBeGreaterThanOrEqual(2);

    // once the run is over, the files are its checkpoints' again
    script.finish();
    act(() => api.push(script.events.splice(0)));
    await waitFor(() => expect(screen.queryByTestId('files-live')).toBeNull());
    await waitFor(() =>
      expect(screen.getAllByTestId('files-entry')[0]!.getAttribute('data-path')).toBe(
        'from-checkpoint.py',
      ),
    );
  });

  it('says plainly when there is no live view, and shows the last checkpoint instead', async () => {
    await openPanel(() =>
      liveView(
        0,
        'The sandbox runs on another machine (a remote engine): the workspace lives in its container',
      ),
    );
    const note = await screen.findByTestId('files-live-note');
    expect(note.textContent).toContain('No live view of the running step');
    expect(note.textContent).toContain('another machine');
    expect(screen.queryByTestId('files-live')).toBeNull();
    await waitFor(() =>
      expect(screen.getAllByTestId('files-entry')[0]!.getAttribute('data-path')).toBe(
        'from-checkpoint.py',
      ),
    );
  });

  it('shows a finished step from its checkpoint, not live', async () => {
    const { api } = await openPanel(() => liveView(10));
    await screen.findByTestId('files-live');
    fireEvent.change(screen.getByTestId('files-step'), { target: { value: '1' } });
    await waitFor(() => expect(screen.queryByTestId('files-live')).toBeNull());
    await waitFor(() =>
      expect(methodCalls(api, 'getRunFiles')).toEqual([{ runId: 'run-1', step: 1 }]),
    );
  });
});
