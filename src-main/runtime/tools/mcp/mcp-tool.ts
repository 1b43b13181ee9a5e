/**
 * One MCP server tool as one of our tools. The model sees the server's own JSON schema;
 * arguments are checked against it (converted with zod's fromJSONSchema) before the
 * call, so a malformed call is answered at once with what is wrong.
 */
import { z } from 'zod';
import { isCancellation } from '../../util/abort';
import { fail, type Tool, type ToolResult } from '../tool';
import { McpToolError, type McpConnection, type RemoteTool } from './mcp-connection';
import { mcpResultToToolResult } from './mcp-content';

type Args = Record<string, unknown>;

export function createMcpTool(
  connection: McpConnection,
  remote: RemoteTool,
  exposedName: string,
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
        );
        const converted = mcpResultToToolResult(result);
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
