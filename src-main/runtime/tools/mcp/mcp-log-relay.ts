/**
 * A server's log messages (`notifications/message`) as `mcp.log` events of the run that
 * uses it: the text capped at 2,000 characters and at most 20 a second per server (the
 * ones left out are counted on the next event), so a chatty server cannot grow a
 * history without bound.
 */
import type { LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import type { McpLogLevel } from '@shared/events';
import type { Routed } from './mcp-run-host';

export const LOG_DATA_CHARS = 2_000;
export const LOGS_PER_SECOND = 20;

export class LogRelay {
  private windowStart = 0;
  private inWindow = 0;
  private omitted = 0;

  constructor(
    private readonly server: string,
    private readonly now: () => number = Date.now,
  ) {}

  relay(params: LoggingMessageNotification['params'], routed: Routed | null): void {
    if (!routed) return;
    const now = this.now();
    if (now - this.windowStart >= 1_000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow > LOGS_PER_SECOND) {
      this.omitted++;
      return;
    }
    const omitted = this.omitted;
    this.omitted = 0;
    routed.host.emit({
      type: 'mcp.log',
      server: this.server,
      level: params.level as McpLogLevel,
      ...(params.logger !== undefined ? { logger: params.logger } : {}),
      data: capped(params.data),
      ...(omitted > 0 ? { omitted } : {}),
    });
  }
}

function capped(data: unknown): string {
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      text = JSON.stringify(data) ?? String(data);
    } catch {
      text = String(data);
    }
  }
  return text.length > LOG_DATA_CHARS
    ? `${text.slice(0, LOG_DATA_CHARS)}… [${text.length - LOG_DATA_CHARS} more characters]`
    : text;
}
