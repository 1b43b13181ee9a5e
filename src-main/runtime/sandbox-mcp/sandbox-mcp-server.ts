/**
 * The MCP server side of a sandbox session (docs/mcp.md, "The sandbox as an MCP server"):
 * `tools/list` answers the sandbox tools with the schemas the built-in agents' model sees,
 * `tools/call` runs one as the next step of a SandboxRun. One server per client
 * connection (stdio: the process; HTTP: an MCP session). The MCP SDK is imported here
 * only when a server is made, so nothing that never serves MCP loads it.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxCallResult, SandboxRun, SandboxToolDescription } from './sandbox-run';

export const SERVER_INFO = { name: 'workbench-sandbox', version: '1.0.0' };

export const INSTRUCTIONS =
  'Tools that run in an Agent Workbench Docker sandbox (not on the host): bash keeps one ' +
  'shell across calls; files live under the workspace folder. Every call is recorded as a ' +
  'step of a run in the workbench history, with a checkpoint of the files after it.';

/**
 * A server whose calls go to the run `runFor` gives, asked at each request that needs it
 * (the caller keeps the run it opened; asking late lets the run be named after the client,
 * and lets a named session move to the gateway's run of its agent once there is one).
 * With `describe`, `tools/list` answers from it and opens no run.
 */
export async function createSandboxMcpServer(
  runFor: (client: string | undefined) => Promise<SandboxRun>,
  describe?: () => SandboxToolDescription[],
): Promise<Server> {
  const [{ Server }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
  });
  const run = () => runFor(server.getClientVersion()?.name);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: describe ? describe() : (await run()).tools,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const session = await run();
    try {
      const result = await session.call(
        request.params.name,
        request.params.arguments ?? {},
        extra.signal,
      );
      return toCallToolResult(result, session.runId);
    } catch (error) {
      return {
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
        isError: true,
      } satisfies CallToolResult;
    }
  });
  return server;
}

/** A call's answer: the tool's output, its step and run in `_meta` (to find it in the history). */
export function toCallToolResult(result: SandboxCallResult, runId: string): CallToolResult {
  const text =
    result.error !== undefined
      ? result.output
        ? `${result.output}\n${result.error}`
        : result.error
      : result.output;
  return {
    content: [{ type: 'text', text }],
    // a command that ran and exited non-zero is the command's failure, not the call's:
    // the output (with its exit code) is the answer, as the built-in agents see it
    isError: result.error !== undefined,
    _meta: {
      'workbench/runId': runId,
      'workbench/step': result.step,
      ...(result.exitCode !== undefined ? { 'workbench/exitCode': result.exitCode } : {}),
    },
  };
}
