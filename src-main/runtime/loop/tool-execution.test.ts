/**
 * What `tool.finished` says about a command's exit code (issue 25 item 7): a call whose
 * command exited non-zero failed, so it is never `ok`, while the model still reads it as
 * a normal observation with the exit code (docs/run-outcome.md).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunEventPayload } from '@shared/events';
import { isToolFailure } from '@shared/run-outcome';
import { ok, type ToolResult } from '../tools/tool';
import { ToolRegistry } from '../tools/tool-registry';
import { executeToolCall } from './tool-execution';

/** A stand-in for bash: returns the result it is given. */
function shellReturning(result: ToolResult) {
  return new ToolRegistry([
    {
      name: 'shell',
      description: 'Runs a command.',
      schema: z.object({ command: z.string() }).strict(),
      execute: async () => result,
    },
  ]);
}

async function run(result: ToolResult) {
  const events: RunEventPayload[] = [];
  const outcome = await executeToolCall(
    { id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":"x"}' } },
    {
      tools: shellReturning(result),
      agent: 'swe',
      runId: 'run-1',
      step: 1,
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
      maxObserve: undefined,
    },
  );
  const finished = events.find((e) => e.type === 'tool.finished');
  if (finished?.type !== 'tool.finished') throw new Error('no tool.finished');
  return { outcome, finished };
}

describe('tool.finished for a command that exited non-zero', () => {
  it('is not ok, keeps the exit code, and the model still gets the output as an observation', async () => {
    const { outcome, finished } = await run(ok('no such file\n(exit code 1)', { exitCode: 1 }));
    expect(finished).toMatchObject({ ok: false, exitCode: 1, output: expect.any(String) });
    expect(finished.error).toBeUndefined();
    expect(isToolFailure(finished)).toBe(true);
    expect(outcome.ok).toBe(false);
    expect(outcome.observation).toBe(
      'Observed output of cmd `shell` executed:\nno such file\n(exit code 1)',
    );
  });

  it('is ok for exit 0 and for a tool without an exit code', async () => {
    const zero = await run(ok('done', { exitCode: 0 }));
    expect(zero.finished).toMatchObject({ ok: true, exitCode: 0 });
    expect(zero.outcome.ok).toBe(true);
    const none = await run(ok('done'));
    expect(none.finished.ok).toBe(true);
    expect(none.finished.exitCode).toBeUndefined();
  });
});
