/**
 * What a run offers the MCP servers it uses, for the requests a server sends the client
 * (sampling, elicitation) and the messages it logs. A connection belongs to the session
 * and may outlive a run, so each run attaches its host while it uses the server and
 * detaches it when it ends. A server's request goes to the run whose tool call is in
 * flight (the server asks while it handles that call), else to the run attached last.
 */
import type { RunEventPayload } from '@shared/events';
import type { LlmClient } from '../../llm/llm-client';
import type { HumanBroker } from '../human-broker';

export interface McpRunHost {
  readonly runId: string;
  /** the agent the run's requests are shown under when no tool call is in flight */
  readonly agent: string;
  /** the run's stop: a server's request waits no longer than the run */
  readonly signal?: AbortSignal;
  emit(event: RunEventPayload): void;
  /** the model a sampling request goes to: the named `[llm.NAME]` profile, or the run's */
  llmFor(profile: string | undefined): LlmClient;
  /**
   * holds a sampling call like the agent's model call when the debugger asks for a pause
   * (point `sampling`); null: no pause
   */
  pause?(agent: string, signal: AbortSignal): Promise<void> | null;
  /** asks the user (elicitation), the way `ask_human` does */
  human: HumanBroker;
}

/** A tool call of a run in flight on a connection. */
export interface McpCallScope {
  runId: string;
  agent: string;
  step: number;
  toolCallId: string;
  signal: AbortSignal;
}

export interface Routed {
  host: McpRunHost;
  call?: McpCallScope;
}

/** Keeps the attached hosts and the calls in flight of one connection. */
export class HostRouter {
  private readonly hosts: McpRunHost[] = [];
  private readonly calls: McpCallScope[] = [];

  attach(host: McpRunHost): () => void {
    this.hosts.push(host);
    return () => remove(this.hosts, host);
  }

  /** A tool call starts; call the returned function when it ends. */
  enter(call: McpCallScope): () => void {
    this.calls.push(call);
    return () => remove(this.calls, call);
  }

  /** Where a server's request or message goes now, or null when no run uses the server. */
  route(): Routed | null {
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const call = this.calls[i]!;
      const host = this.hosts.findLast((h) => h.runId === call.runId);
      if (host) return { host, call };
    }
    const host = this.hosts.at(-1);
    return host ? { host } : null;
  }
}

function remove<T>(list: T[], item: T): void {
  const index = list.lastIndexOf(item);
  if (index >= 0) list.splice(index, 1);
}
