/**
 * What each agent's context window holds, followed from a run's events (memory appends,
 * truncations, the user's message edits), so the terminal debugger can list the context
 * and offer a message's current text for editing.
 */
import type { Role } from '@shared/domain/message';
import type { RunEvent } from '@shared/events';

interface Entry {
  role: Role;
  content: string | null;
}

export class ContextTracker {
  private readonly agents = new Map<string, Map<number, Entry>>();

  observe(event: RunEvent): void {
    switch (event.type) {
      case 'memory.appended':
        this.of(event.agent).set(event.index, {
          role: event.message.role,
          content: event.message.content,
        });
        return;
      case 'memory.truncated':
        for (const index of event.dropped) this.of(event.agent).delete(index);
        return;
      case 'run.edited':
        if (event.edit.kind === 'edit_message') {
          const entry = this.of(event.agent).get(event.edit.index);
          if (entry) entry.content = event.edit.after;
        }
        return;
      default:
        return;
    }
  }

  message(agent: string, index: number): Entry | undefined {
    return this.agents.get(agent)?.get(index);
  }

  /** One line per message in the window: `#3 user: text…`. */
  list(agent: string, width = 100): string[] {
    return [...(this.agents.get(agent) ?? new Map<number, Entry>())].map(([index, m]) => {
      const text = (m.content ?? '(tool calls only)').replace(/\s+/g, ' ').trim();
      return `#${index} ${m.role}: ${text.length > width ? `${text.slice(0, width)}…` : text}`;
    });
  }

  private of(agent: string): Map<number, Entry> {
    let entries = this.agents.get(agent);
    if (!entries) this.agents.set(agent, (entries = new Map()));
    return entries;
  }
}
