/**
 * What the client offers a server beyond calling it (issue 26 item 2, 3): the
 * capabilities it declares and the handlers that answer the server's requests.
 *
 * - sampling (`sampling/createMessage`, mcp-sampling.ts), unless `[mcp.servers.X]
 *   sampling = false`: then it is not declared and the server cannot ask;
 * - elicitation in form mode (`elicitation/create`, mcp-elicitation.ts);
 * - roots (`roots/list`): the session's workspace folder, the folder the sandbox sees
 *   at its work_dir, unless `roots = false`. It never changes for a connection (the pool
 *   is the session's), so `listChanged` is not declared;
 * - the server's log messages (`notifications/message`, mcp-log-relay.ts), and its
 *   level (`logging/setLevel`, `log_level`) once connected, when it declares logging.
 */
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerSettings } from '../../config/schema';
import { answerElicitation } from './mcp-elicitation';
import { LogRelay } from './mcp-log-relay';
import type { HostRouter, Routed } from './mcp-run-host';
import { answerSampling } from './mcp-sampling';

export function clientCapabilities(settings: McpServerSettings, cwd?: string): ClientCapabilities {
  return {
    ...(settings.sampling === false ? {} : { sampling: {} }),
    elicitation: { form: {} },
    ...(offersRoots(settings, cwd) ? { roots: {} } : {}),
  };
}

function offersRoots(settings: McpServerSettings, cwd: string | undefined): cwd is string {
  return cwd !== undefined && settings.roots !== false;
}

export interface FeatureContext {
  server: string;
  settings: McpServerSettings;
  router: HostRouter;
  /** the session's workspace folder */
  cwd?: string;
}

export function installClientFeatures(client: Client, ctx: FeatureContext): void {
  const routed = (what: string): Routed => {
    const found = ctx.router.route();
    if (!found) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `No run is using MCP server "${ctx.server}" now, so nobody can answer its ${what}.`,
      );
    }
    return found;
  };
  if (ctx.settings.sampling !== false) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      try {
        return await answerSampling(request.params, {
          server: ctx.server,
          profile: ctx.settings.sampling_profile,
          routed: routed('sampling request'),
          signal: extra.signal,
        });
      } catch (error) {
        throw asMcpError(error, 'The model call failed');
      }
    });
  }
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    try {
      return await answerElicitation(request.params, {
        server: ctx.server,
        routed: routed('question'),
        signal: extra.signal,
      });
    } catch (error) {
      throw asMcpError(error, 'The question was not answered');
    }
  });
  const cwd = ctx.cwd;
  if (offersRoots(ctx.settings, cwd)) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(cwd).href, name: 'workspace' }],
    }));
  }
  const logs = new LogRelay(ctx.server);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.relay(notification.params, ctx.router.route());
  });
}

/** Sets the server's log level when it declares logging; a refusal is only reported. */
export async function applyLogLevel(
  client: Client,
  ctx: { describe(): string; level: McpServerSettings['log_level']; timeoutMs: number },
): Promise<void> {
  if (!client.getServerCapabilities()?.logging) return;
  try {
    await client.setLoggingLevel(ctx.level ?? 'info', { timeout: ctx.timeoutMs });
  } catch (error) {
    console.warn(
      `[workbench] ${ctx.describe()} refused logging/setLevel: ${(error as Error).message}`,
    );
  }
}

function asMcpError(error: unknown, what: string): McpError {
  if (error instanceof McpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new McpError(ErrorCode.InternalError, `${what}: ${message}`);
}
