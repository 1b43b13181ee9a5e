/** The debugger's events as `workbench run` and `workbench runs show` print them (replay). */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventPayload } from '@shared/events';
import { formatEvent } from './format-event';

const at = (payload: RunEventPayload): RunEvent => ({
  v: 1,
  runId: 'r1',
  seq: 1,
  ts: 0,
  ...payload,
});

describe('formatEvent for the debugger', () => {
  it('prints pauses, resumes, edits and breakpoint changes, one line each', () => {
    expect(
      formatEvent(
        at({
          type: 'run.paused',
          agent: 'swe',
          step: 3,
          point: 'before_tools',
          reasons: [
            {
              kind: 'breakpoint',
              breakpointId: 'bp-1',
              condition: 'tool:bash',
              detail: 'swe is about to run bash (c1)',
            },
            { kind: 'approval', tools: ['bash'] },
          ],
        }),
      ),
    ).toBe(
      '⏸ paused at step 3 (swe, before tools): breakpoint bp-1 (tool:bash): swe is about to run bash (c1); approval needed before running bash',
    );
    expect(
      formatEvent(
        at({ type: 'run.resumed', agent: 'swe', step: 3, mode: 'cycle', by: 'ui', pausedMs: 4200 }),
      ),
    ).toBe('▶ resumed by the UI (step: one cycle) after 4.2 s');
    expect(
      formatEvent(
        at({
          type: 'run.edited',
          agent: 'swe',
          step: 3,
          by: 'terminal',
          edit: {
            kind: 'change_model',
            before: { model: 'gpt-4o', profile: 'default', temperature: 1 },
            after: { model: 'gpt-4o-mini', profile: 'cheap', temperature: 0.2 },
          },
        }),
      ),
    ).toBe(
      '  ✎ terminal changed the model: gpt-4o [llm] temperature 1 → gpt-4o-mini [llm.cheap] temperature 0.2',
    );
    expect(
      formatEvent(
        at({
          type: 'breakpoints.changed',
          breakpoints: [
            {
              id: 'bp-1',
              condition: { kind: 'stuck' },
              spec: 'stuck',
              origin: 'config',
              agent: 'swe',
            },
          ],
          approvals: [{ tool: 'bash', agent: 'swe' }],
          by: 'config',
        }),
      ),
    ).toBe('  ● breakpoints: bp-1 stuck; approval before bash (swe)');
  });
});
