/**
 * run.started is a run's first event (seq 1) even when its setup speaks first: an MCP
 * server connected to fetch a prompt logs as it starts (seen in mcp-prompt-run.int.test,
 * where the history then began with mcp.log and its export could not be imported). What
 * the setup emits is held and follows run.started, in order; a setup that fails keeps it
 * too, after its own run.started.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { RunManager } from './run-manager';
import type { RunFactory } from './run-types';

const log = (data: string) => ({ type: 'mcp.log', server: 'cli', level: 'info', data }) as const;

function manager(factory: RunFactory): { runs: RunManager; events: RunEvent[] } {
  const runs = new RunManager(factory);
  const events: RunEvent[] = [];
  runs.onEvent((e) => events.push(e));
  return { runs, events };
}

describe('run.started comes first', () => {
  it("holds the setup's events until run.started, then publishes them in order", async () => {
    const { runs, events } = manager(async (_input, context) => {
      context.emit(log('Roots updated'));
      await new Promise((r) => setTimeout(r, 5));
      context.emit(log('prompt listed'));
      return {
        agentName: 'mcp',
        model: 'm',
        maxSteps: 1,
        task: 'from the prompt',
        execute: async () => {
          context.emit(log('during the run'));
          return {
            outcome: 'finished',
            state: 'FINISHED',
            steps: 0,
            usage: { prompt: 0, completion: 0 },
            stepResults: [],
          };
        },
      };
    });
    const handle = runs.start({ task: 'x', agent: 'mcp' });
    await handle.done;
    const own = events.filter((e) => e.runId === handle.runId);
    expect(own.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.started'],
      [2, 'mcp.log'],
      [3, 'mcp.log'],
      [4, 'mcp.log'],
      [5, 'run.finished'],
    ]);
    expect(own.slice(1, 4).map((e) => (e.type === 'mcp.log' ? e.data : ''))).toEqual([
      'Roots updated',
      'prompt listed',
      'during the run',
    ]);
    expect(runs.history.read(handle.runId)?.events[0]?.type).toBe('run.started');
  });

  it('a setup that fails: its run.started, then what it said, then the end', async () => {
    const { runs, events } = manager(async (_input, context) => {
      context.emit(log('connecting'));
      throw new Error('the server refused');
    });
    const handle = runs.start({ task: 'x', agent: 'mcp' });
    await handle.done;
    const own = events.filter((e) => e.runId === handle.runId);
    expect(own.map((e) => e.type)).toEqual(['run.started', 'mcp.log', 'run.finished']);
    expect(own.map((e) => e.seq)).toEqual([1, 2, 3]);
  });
});
