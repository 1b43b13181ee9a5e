import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_IDS } from '../../../test-ids';
import { SandboxEngines, engineSummary } from './SandboxEngines';

describe('SandboxEngines', () => {
  it('shows each engine with what it offers, and why one does not answer', () => {
    render(
      <SandboxEngines
        engines={[
          {
            endpoint: 'tcp://build-1:2376 (TLS)',
            version: '27.3.1',
            cpus: 8,
            memoryBytes: 16 * 1024 ** 3,
            runningContainers: 3,
            ours: 1,
            maxContainers: 4,
          },
          { endpoint: 'unix:///run/podman/podman.sock', error: 'connect ENOENT', ours: 0 },
        ]}
      />,
    );
    const rows = screen.getAllByTestId(TEST_IDS.sandboxEngineRow);
    expect(rows.map((r) => r.getAttribute('data-state'))).toEqual(['up', 'down']);
    expect(rows[0]!.textContent).toBe(
      'tcp://build-1:2376 (TLS) 27.3.1 · 8 CPUs · 16.0 GB · 3 running · 1 sandbox of this app (max 4)',
    );
    expect(rows[1]!.textContent).toBe(
      'unix:///run/podman/podman.sock does not answer: connect ENOENT',
    );
  });

  it('counts in plain words', () => {
    expect(engineSummary({ endpoint: 'e', cpus: 1, ours: 2 })).toBe(
      '1 CPU · 2 sandboxes of this app',
    );
  });
});
