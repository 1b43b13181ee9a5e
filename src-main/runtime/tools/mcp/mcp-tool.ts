/**
 * One MCP server tool as one of our tools. The model sees the server's own JSON schema;
 * arguments are checked against it (converted with zod's fromJSONSchema) before the
 * call, so a malformed call is answered at once with what is wrong. Progress the server
 * reports becomes `tool.progress` events (and keeps the call's timeout from firing);
 * tools that require task-based execution run as MCP tasks.
 */
import { z } from 'zod';
import { isCancellation } from '../../util/abort';
import { fail, type Tool, type ToolContext, type ToolResult } from '../tool';
import {
  McpToolError,
  type McpConnection,
  type RemoteTool,
  type ToolProgress,
} from './mcp-connection';
import { mcpResultToToolResult, type ContentOptions } from './mcp-content';

type Args = Record<string, unknown>;

/** Progress events at most this often; the last report (progress = total) always goes. */
const PROGRESS_EVERY_MS = 250;

export function createMcpTool(
  connection: McpConnection,
  remote: RemoteTool,
  exposedName: string,
  content: ContentOptions = {},
): Tool<Args> {
  const origin = `(tool "${remote.name}" of MCP server "${connection.serverName}")`;
  return {
    name: exposedName,
    description: remote.description ? `${remote.description} ${origin}` : origin,
    schema: argumentsSchema(remote.inputSchema),
    async execute(args, context): Promise<ToolResult> {
      try {
        const { result, reconnected } = await connection.callTool(
          remote.name,
          args,
          context.signal,
          {
            onProgress: progressReporter(context, exposedName),
            // what the server asks during the call (sampling, a form) goes to this run
            scope: {
              runId: context.runId,
              agent: context.agent,
              step: context.step,
              toolCallId: context.toolCallId,
              signal: context.signal,
            },
            ...(remote.taskSupport ? { taskSupport: remote.taskSupport } : {}),
          },
        );
        // A tool that changed the server's tool list: let the agent take the change in first.
        await connection.toolsSettled();
        const converted = mcpResultToToolResult(result, content);
        if (!reconnected) return converted;
        return converted.error !== undefined
          ? { ...converted, error: `${reconnected}\n${converted.error}` }
          : { ...converted, output: `${reconnected}\n${converted.output}` };
      } catch (error) {
        if (isCancellation(error, context.signal)) throw error;
        if (error instanceof McpToolError) return fail(error.message);
        throw error;
      }
    },
  };
}

/** Turns the server's progress reports into throttled `tool.progress` events. */
function progressReporter(context: ToolContext, name: string): (p: ToolProgress) => void {
  let lastAt = 0;
  return (p) => {
    const now = Date.now();
    const isLast = p.total !== undefined && p.progress >= p.total;
    if (!isLast && now - lastAt < PROGRESS_EVERY_MS) return;
    lastAt = now;
    context.emit({
      type: 'tool.progress',
      agent: context.agent,
      step: context.step,
      toolCallId: context.toolCallId,
      name,
      progress: p.progress,
      ...(p.total !== undefined ? { total: p.total } : {}),
      ...(p.message !== undefined ? { message: p.message } : {}),
    });
  };
}

/**
 * A zod schema that validates like the server's JSON schema and, converted back for the
 * model, yields that schema (metadata is merged over the generated JSON schema). A schema
 * zod cannot convert is not checked here; the server still checks it.
 */
export function argumentsSchema(inputSchema: Record<string, unknown>): z.ZodType<Args> {
  const { $schema: _dialect, ...declared } = inputSchema;
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(declared as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    validator = z.looseObject({});
  }
  return validator.meta({ ...declared, type: 'object' }) as z.ZodType<Args>;
}
