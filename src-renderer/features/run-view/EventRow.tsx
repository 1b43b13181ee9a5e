import { memo } from 'react';
import type { RunEvent } from '@shared/events';

function describe(event: RunEvent): string {
  switch (event.type) {
    case 'run.started':
      return `${event.agent} started on ${event.model}: ${event.task}`;
    case 'state.changed':
      return `${event.from} → ${event.to}`;
    case 'step.started':
      return `step ${event.step} of ${event.maxSteps}`;
    case 'step.finished':
      return `step ${event.step} done in ${event.durationMs} ms`;
    case 'memory.appended':
      return `[${event.message.role}] ${event.message.content ?? (event.message.tool_calls ?? []).map((c) => c.function.name).join(', ')}`;
    case 'tool.started':
      return `${event.name}(${JSON.stringify(event.args)})`;
    case 'tool.finished':
      return `${event.name} ${event.ok ? 'ok' : `failed: ${event.error ?? ''}`}`;
    case 'run.finished':
      return `${event.outcome} after ${event.steps} steps${event.error ? `: ${event.error}` : ''}`;
    default:
      return '';
  }
}

export const EventRow = memo(function EventRow({ event }: { event: RunEvent }) {
  return (
    <li className={`event event-${event.type.replace('.', '-')}`} data-type={event.type}>
      <span className="event-seq">{event.seq}</span>
      <span className="event-type">{event.type}</span>
      <span className="event-text">{describe(event)}</span>
    </li>
  );
});
