import type { RunEvent } from '@shared/events';

/** One human-readable line per interesting event (stderr), or null to stay quiet. */
export function formatEvent(event: RunEvent): string | null {
  switch (event.type) {
    case 'run.started':
      return `▶ run ${event.runId}: ${event.agent} on ${event.model} (max ${event.maxSteps} steps)\n  task: ${oneLine(event.task)}`;
    case 'state.changed':
      return `  state ${event.from} → ${event.to}`;
    case 'step.started':
      return `— step ${event.step}/${event.maxSteps}`;
    case 'memory.appended': {
      const m = event.message;
      if (m.role === 'assistant' && m.content) return `  assistant: ${oneLine(m.content)}`;
      return null;
    }
    case 'memory.truncated':
      return `  memory: ${event.dropped.length} old message(s) left the window of ${event.window}`;
    case 'tool.started':
      return `  ⚙ ${event.name} ${oneLine(typeof event.args === 'string' ? event.args : JSON.stringify(event.args))}`;
    case 'tool.finished':
      return event.ok
        ? `  ✓ ${event.name}${event.exitCode !== undefined ? ` (exit ${event.exitCode})` : ''}: ${oneLine(event.output)}`
        : `  ✗ ${event.name}: ${oneLine(event.error ?? '')}`;
    case 'tool.progress':
      return `  … ${event.name} ${event.progress}${event.total !== undefined ? `/${event.total}` : ''}${event.message ? `: ${oneLine(event.message)}` : ''}`;
    case 'llm.retried':
      return `  ↻ model call failed${event.status !== null ? ` (${event.status})` : ''}; retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${oneLine(event.error)}`;
    case 'stuck.detected':
      return `  ⚠ stuck: ${event.kind === 'content' ? 'the same reply' : 'the same tool calls'} ${event.count}× (earlier: #${event.duplicateOf.join(', #')}); nudging the model to change strategy`;
    case 'sandbox.changed':
      return event.status === 'failed'
        ? `  sandbox failed: ${oneLine(event.error ?? 'unknown error')}`
        : null;
    case 'run.finished': {
      const tokens = `${event.usage.prompt} prompt + ${event.usage.completion} completion tokens`;
      return `■ ${event.outcome} after ${event.steps} steps (${tokens})${event.error ? `: ${event.error}` : ''}`;
    }
    default:
      return null;
  }
}

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
