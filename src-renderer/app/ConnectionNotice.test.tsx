import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../testing/memory-api';
import { renderApp } from '../testing/render-app';

/** Browser mode, when the page lost its server (issue 25 item 9). */
describe('the connection notice', () => {
  it('says "reconnecting…" while it retries, and what to do once the token is refused', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    expect(screen.queryByTestId('connection-lost')).toBeNull();
    act(() => api.setConnected(false));
    expect(screen.getByTestId('connection-lost').textContent).toBe('disconnected — reconnecting…');
    expect(screen.queryByTestId('connection-ended')).toBeNull();

    act(() => api.endConnection('token-rejected'));
    expect(screen.getByTestId('connection-lost').textContent).not.toContain('reconnecting');
    const banner = screen.getByTestId('connection-ended');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('The workbench server was restarted');
    expect(banner.textContent).toContain('Open the new URL printed in the terminal');
    expect(banner.textContent).toContain('WORKBENCH_SERVE_TOKEN');
  });

  it('says it stopped trying when nothing answered, and offers a reload', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    act(() => api.endConnection('gave-up'));
    expect(screen.getByTestId('connection-lost').textContent).toBe('disconnected');
    expect(screen.getByTestId('connection-ended').textContent).toContain(
      'does not answer, and this page stopped trying',
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('clears once the connection is back', async () => {
    const api = createMemoryApi();
    await renderApp(api);
    act(() => api.endConnection('gave-up'));
    act(() => api.setConnected(true));
    expect(screen.queryByTestId('connection-lost')).toBeNull();
    expect(screen.queryByTestId('connection-ended')).toBeNull();
  });
});
