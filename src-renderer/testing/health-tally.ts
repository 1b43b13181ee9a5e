/**
 * The health line's counts taken straight from a run's raw events, by the definitions of
 * docs/run-outcome.md ("The health line"), without `src-shared/run-summary.ts`: the
 * independent check that the header, the history row and `runs list` count what the
 * history holds. Deliberately plain (one filter per count), so a fault in the summary
 * fold cannot hide in here too.
 */
import type { RunEvent } from '@shared/events';
import type { RunHealth } from '@shared/ipc';

export function tallyHealth(events: Iterable<RunEvent>): RunHealth {
  const health: RunHealth = { toolCalls: 0, toolErrors: 0, stuck: 0, duplicates: 0, retries: 0 };
  for (const event of events) {
    switch (event.type) {
      case 'tool.finished': {
        health.toolCalls += 1;
        // failed: returned an error or exited non-zero; a call the user skipped was not run
        const failed = !event.ok || (event.exitCode !== undefined && event.exitCode !== 0);
        if (failed && event.skipped !== true) health.toolErrors += 1;
        break;
      }
      case 'stuck.detected':
        health.stuck += 1;
        break;
      case 'memory.appended':
        if (event.duplicate !== undefined) health.duplicates += 1;
        break;
      case 'llm.retried':
        health.retries += 1;
        break;
      default:
        break;
    }
  }
  return health;
}
