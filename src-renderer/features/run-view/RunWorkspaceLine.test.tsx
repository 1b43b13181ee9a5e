/**
 * Where a run works on the host (issue 25 item 11: nothing said where "this session's
 * workspace folder" is on disk): the session's folder, with a copy button, for a run that
 * chose no folder; nothing for an imported one, whose session is another machine's.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { summarize } from '@shared/run-summary';
import type { RunSummary } from '@shared/ipc';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';

async function openRun(extra: Partial<RunSummary>) {
  const api = createMemoryApi();
  const events = history('run-w', [1].map(plainStep), { startTs: 1_700_000_000_000 });
  api.history.set('run-w', events);
  const summary = { ...summarize(events)!, lastSeq: events.at(-1)!.seq, ...extra };
  api.override('listRuns', async () => [summary]);
  api.override('getRun', async () => ({
    summary,
    events,
    isLive: false,
    warnings: [],
    hasMore: false,
  }));
  await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  await flush();
}

describe('the run view says where the run works', () => {
  it("names its session's folder on the host, copyable, when no folder was chosen", async () => {
    await openRun({});
    const line = screen.getByTestId('run-workspace');
    expect(within(line).getByTestId('host-path').textContent).toBe('/tmp/home/workspaces/s-run-w');
    expect(line.textContent).toContain("its session's folder, mounted read-write at /workspace");
    expect(within(line).getByTestId('copy-button').textContent).toBe('copy path');
  });

  it('names no folder of this machine for an imported run', async () => {
    await openRun({ isImported: true });
    expect(screen.queryByTestId('run-workspace')).toBeNull();
  });
});

describe('the new-run form says where a run without a chosen folder works', () => {
  it("shows this session's workspace folder while the folder field is empty", async () => {
    await renderApp(createMemoryApi());
    const help = screen.getByTestId('session-workspace');
    expect(within(help).getByTestId('host-path').textContent).toBe('/tmp/home/workspaces/s-test');
    fireEvent.change(screen.getByTestId('workspace-input'), { target: { value: '/srv/project' } });
    expect(screen.queryByTestId('session-workspace')).toBeNull();
  });
});
