import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PendingCallRow } from './PendingCalls';

afterEach(() => vi.useRealTimers());

describe('PendingCallRow', () => {
  it('shows the model, a ticking elapsed time, the attempt and each retry reason inline', () => {
    vi.useFakeTimers();
    const since = Date.now();
    render(
      <PendingCallRow
        call={{
          agent: 'manus',
          step: 3,
          model: 'gpt-test',
          since,
          attempt: 2,
          maxAttempts: 4,
          retries: [
            {
              attempt: 1,
              status: 429,
              error: 'Rate limited (429): slow down',
              delayMs: 60_000,
              ts: since,
            },
          ],
        }}
      />,
    );
    const row = screen.getByTestId('pending-call');
    expect(row.textContent).toContain('gpt-test');
    expect(row.textContent).toContain('Waiting to retry');
    expect(row.getAttribute('data-max-attempts')).toBe('4');
    expect(screen.getByTestId('pending-call-attempt').textContent).toBe('attempt 2 of 4');
    expect(screen.getByTestId('pending-call-elapsed').textContent).toBe('0 s');
    const retry = screen.getByTestId('pending-call-retry');
    expect(retry.getAttribute('data-status')).toBe('429');
    expect(retry.textContent).toContain(
      'attempt 1 failed (HTTP 429: Rate limited (429): slow down)',
    );
    act(() => vi.advanceTimersByTime(3_000));
    expect(screen.getByTestId('pending-call-elapsed').textContent).toBe('3 s');
  });
});
