import type { RunEvent } from '@shared/events';

/** One human-readable line per interesting event (stderr), or null to stay quiet. */
export function formatEvent(event: RunEvent): string | null {
  switch (event.type) {
    case 'run.started':
      return `▶ run ${event.runId}: ${event.agent} on ${event.model} (max ${event.maxSteps} steps)`;
    case 'state.changed':
      return `  state ${event.from} → ${event.to}`;
    case 'step.started':
      return `— step ${event.step}/${event.maxSteps}`;
    case 'memory.appended': {
      const m = event.message;
      if (m.role === 'assistant' && m.content) return `  assistant: ${oneLine(m.content)}`;
      return null;
    }
    case 'tool.started':
      return `  ⚙ ${event.name} ${oneLine(JSON.stringify(event.args))}`;
    case 'tool.finished':
      return event.ok
        ? `  ✓ ${event.name}${event.exitCode !== undefined ? ` (exit ${event.exitCode})` : ''}: ${oneLine(event.output)}`
        : `  ✗ ${event.name}: ${oneLine(event.error ?? '')}`;
    case 'llm.retried':
      return `  ↻ model call retry ${event.attempt} in ${event.delayMs} ms: ${event.error}`;
    case 'stuck.detected':
      return `  ⚠ stuck: ${event.kind} repeated ${event.count}×`;
    case 'run.finished':
      return `■ ${event.outcome} after ${event.steps} steps${event.error ? `: ${event.error}` : ''}`;
    default:
      return null;
  }
}

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
