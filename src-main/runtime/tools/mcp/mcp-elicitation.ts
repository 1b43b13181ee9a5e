/**
 * MCP elicitation (`elicitation/create`, form mode): the server's question goes to the
 * user through the same broker as `ask_human` (the desktop app, a browser on `workbench
 * serve`, a terminal), with the requested schema as a form (`human.requested.form`).
 * The answer is checked against the schema before it is accepted (src-shared/
 * elicitation.ts); the user may also decline or cancel. With nobody to answer, the
 * server gets an error that says so.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { parseElicitAnswer } from '@shared/elicitation';
import { HumanUnavailableError } from '../human-broker';
import type { Routed } from './mcp-run-host';

export interface ElicitationContext {
  server: string;
  routed: Routed;
  signal: AbortSignal;
}

let asked = 0;

export async function answerElicitation(
  params: ElicitRequest['params'],
  ctx: ElicitationContext,
): Promise<ElicitResult> {
  if (params.mode === 'url' || !('requestedSchema' in params)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'This client answers form elicitations only (no URL mode).',
    );
  }
  const { host, call } = ctx.routed;
  const schema = params.requestedSchema as Record<string, unknown>;
  const signal = AbortSignal.any(
    [ctx.signal, call?.signal ?? host.signal].filter((s): s is AbortSignal => s !== undefined),
  );
  try {
    const text = await host.human.ask({
      runId: host.runId,
      // the tool call that made the server ask, so the question shows at its card
      toolCallId: call?.toolCallId ?? `mcp-${ctx.server}-elicitation-${++asked}`,
      question: `MCP server "${ctx.server}" asks: ${params.message}`,
      form: { server: ctx.server, message: params.message, schema },
      validate: (answer) => {
        const parsed = parseElicitAnswer(schema, answer);
        return 'problem' in parsed ? parsed.problem : null;
      },
      signal,
      emit: (event) => host.emit(event),
    });
    const parsed = parseElicitAnswer(schema, text);
    if ('problem' in parsed) throw new McpError(ErrorCode.InvalidParams, parsed.problem);
    return parsed.answer;
  } catch (error) {
    if (error instanceof HumanUnavailableError) {
      throw new McpError(ErrorCode.InternalError, error.message);
    }
    throw error;
  }
}
