/**
 * Tool calls: started, progress, streamed output, finished; a question to the user
 * (ask_human, an MCP elicitation) and an MCP server's log lines.
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */
import type { HumanForm } from '../elicitation';

export interface ToolStartedEvent {
  type: 'tool.started';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  /** parsed arguments, or the raw string when they did not parse */
  args: unknown;
}
export interface ToolFinishedEvent {
  type: 'tool.finished';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  ok: boolean;
  output: string;
  error?: string;
  exitCode?: number;
  durationMs: number;
  /**
   * the user skipped the call in the debugger: it never ran and the model got the
   * user's observation (`ok` is false for the model's sake); not a tool error
   */
  skipped?: boolean;
  /**
   * an MCP tool's `structuredContent`, checked against its `outputSchema` (docs/mcp.md,
   * "Structured output"); absent when the tool returned none or it was over 64 KiB
   */
  structured?: unknown;
}
/**
 * A running tool reported progress (an MCP server's `notifications/progress`, or the
 * status of an MCP task). Throttled; a tool may send none.
 */
export interface ToolProgressEvent {
  type: 'tool.progress';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  /** how far it is, in the tool's own unit; grows with every report */
  progress: number;
  /** the end of the scale, when the tool knows it */
  total?: number;
  message?: string;
}
/**
 * What a running command printed (the sandbox's bash and python_execute), batched like
 * `llm.delta`: at most one event per stream every ~100 ms or 16 KiB. Each stream of a
 * call streams at most the capture cap (64 KiB, as `tool.finished.output` keeps);
 * after that, events carry only `omittedBytes` (at most one a second), and the full
 * head-and-tail output comes with `tool.finished`.
 */
export interface ToolOutputEvent {
  type: 'tool.output';
  agent: string;
  step: number;
  toolCallId: string;
  name: string;
  stream: 'stdout' | 'stderr';
  text: string;
  /** bytes of this stream not streamed so far because the cap was reached */
  omittedBytes?: number;
}

export interface HumanRequestedEvent {
  type: 'human.requested';
  toolCallId: string;
  question: string;
  /**
   * an MCP server's elicitation: the form to fill (src-shared/elicitation.ts); the answer
   * is then the JSON of an ElicitAnswer. Absent for `ask_human`.
   */
  form?: HumanForm;
}
export interface HumanAnsweredEvent {
  type: 'human.answered';
  toolCallId: string;
  answer: string;
}

/** The levels of MCP's `notifications/message` (RFC 5424), least severe first. */
export const MCP_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/**
 * A log message an MCP server sent (`notifications/message`), at or above the server's
 * `log_level`. `data` is its text (JSON for other values), capped at 2,000 characters;
 * at most 20 a second per server are recorded, `omitted` counts the ones left out before.
 */
export interface McpLogEvent {
  type: 'mcp.log';
  server: string;
  level: McpLogLevel;
  logger?: string;
  data: string;
  omitted?: number;
}
