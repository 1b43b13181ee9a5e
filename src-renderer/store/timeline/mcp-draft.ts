/**
 * The timeline's share of MCP events: a server's log lines (the run view's "Server logs"
 * panel) and the model calls a server asks for while a tool runs (sampling), which go
 * into that tool's card instead of passing for the agent's own request of the step.
 */
import type { RunEventOf } from '@shared/events';
import { StructureDraft } from './structure-draft';
import { answeredTime } from './step-waits';

export class McpDraft extends StructureDraft {
  /** A line of an MCP server's log: appended to the shared list, never copied. */
  protected mcpLog(e: RunEventOf<'mcp.log'>): void {
    const lines = this.m.index.mcpLogs;
    // a replay of the same model's events (reload) starts again from its own count
    lines.length = this.m.mcpLogCount;
    lines.push({
      seq: e.seq,
      ts: e.ts,
      server: e.server,
      level: e.level,
      data: e.data,
      ...(e.logger !== undefined ? { logger: e.logger } : {}),
      ...(e.omitted ? { omitted: e.omitted } : {}),
    });
    this.m.mcpLogCount = lines.length;
  }

  /**
   * A model call an MCP server asked for while a tool ran: shown in that tool's card as
   * the server's sampling request (it is not the agent's own request of the step).
   */
  protected samplingRequested(e: RunEventOf<'llm.requested'>, server: string): void {
    const position = this.m.runningTool;
    const tool = position === undefined ? undefined : this.items[position];
    if (position === undefined || tool?.kind !== 'tool') return;
    const sampling = [
      ...(tool.sampling ?? []),
      {
        seq: e.seq,
        server,
        model: e.model,
        ...(e.messages ? { messages: e.messages } : {}),
      },
    ];
    this.patch(position, tool, { sampling });
    this.m.pendingSampling[e.agent] = { position, call: sampling.length - 1 };
  }

  /** The answer to a sampling call: into its tool card. False: not a sampling call. */
  protected samplingResponded(e: RunEventOf<'llm.responded'>): boolean {
    const pending = this.m.pendingSampling[e.agent];
    if (!pending) return false;
    delete this.m.pendingSampling[e.agent];
    const tool = this.items[pending.position];
    if (tool?.kind !== 'tool' || !tool.sampling) return true;
    const sampling = tool.sampling.map((call, i) =>
      i === pending.call
        ? {
            ...call,
            reply: {
              content: e.content,
              usage: e.usage,
              durationMs: e.durationMs,
              finishReason: e.finishReason,
            },
          }
        : call,
    );
    this.patch(pending.position, tool, { sampling });
    this.updateStep(e.agent, e.step, (s) => ({
      usage: {
        prompt: (s.usage?.prompt ?? 0) + e.usage.prompt,
        completion: (s.usage?.completion ?? 0) + e.usage.completion,
      },
      ...answeredTime(this.m.waitState, e, s),
    }));
    return true;
  }
}
