/**
 * The contract's handlers for what a run needs besides the model profiles: pre-flight,
 * the sandbox images on the engine, saving `[sandbox]`/`[browser]`/`[mcp]`, testing an
 * MCP server, and the desktop folder picker.
 */
import type { RequestChannel } from '@shared/ipc';
import type { EngineEntry } from '../runtime/config/engine-address';
import { ConfigError } from '../runtime/config/load';
import type { WorkbenchConfig } from '../runtime/config/schema';
import { preflight } from '../runtime/launch/preflight';
import type { Runtime } from '../runtime/runtime';
import { testMcpServer } from '../runtime/tools/mcp/mcp-test';
import { mcpAuthContext } from '../runtime/agents/mcp-auth';
import { listServerPrompts } from '../runtime/tools/mcp/mcp-toolset';
import type { McpServerPrompts } from '@shared/domain/mcp';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type SettingsChannel =
  | 'run:preflight'
  | 'sandbox:images'
  | 'config:save-sections'
  | 'mcp:test'
  | 'mcp:prompts'
  | 'dialog:pick-folder';

export interface SettingsDeps {
  /** the desktop app's native folder dialog; absent in browser mode */
  pickFolder?: () => Promise<string | null>;
}

/** the longest one server may take to list its prompts, connecting included */
const PROMPTS_TIMEOUT_MS = 20_000;

/**
 * One server's prompts within `timeoutMs`: a server that does not answer in time is
 * reported as such (and its listing stopped), the others are not held up by it.
 */
async function promptsWithin(
  list: (signal: AbortSignal) => Promise<McpServerPrompts[]>,
  server: string,
  timeoutMs: number,
): Promise<McpServerPrompts> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<McpServerPrompts>((done) => {
    timer = setTimeout(() => {
      controller.abort();
      done({
        server,
        prompts: [],
        error: `MCP server "${server}" did not list its prompts within ${Math.round(timeoutMs / 1000)} s (check [mcp.servers.${server}] in config.toml, or test it in Settings → MCP servers)`,
      });
    }, timeoutMs);
  });
  try {
    const listed = list(controller.signal).then(
      (all) => all[0] ?? { server, prompts: [], error: 'listed nothing' },
    );
    return await Promise.race([listed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** `[sandbox] engines` of config.toml; none while the file does not load (Settings says why). */
function configuredEngines(load: () => WorkbenchConfig): readonly EngineEntry[] {
  try {
    return load().sandbox.engines;
  } catch (error) {
    if (error instanceof ConfigError) return [];
    throw error;
  }
}

export function createSettingsHandlers(
  runtime: Runtime,
  deps: SettingsDeps,
): Pick<Handlers, SettingsChannel & RequestChannel> {
  const { services } = runtime;
  return {
    'run:preflight': async (input) => preflight(services, input, { probeModel: true }),
    'sandbox:images': async () => {
      const pool = services.sandboxes.engine;
      const engines = configuredEngines(services.loadConfig);
      pool.configure(engines);
      // The engines' rows are asked alongside (each within the same 5 s), never instead.
      const rows = engines.length > 0 ? pool.statusEach({ timeoutMs: 5000 }) : undefined;
      const withEngines = async <T extends object>(view: T) =>
        rows ? { ...view, engines: await rows } : view;
      try {
        const images = await pool.listImages({ timeoutMs: 5000 });
        return withEngines({
          images: images
            .flatMap((image) =>
              image.tags.map((tag) => ({
                tag,
                sizeBytes: image.sizeBytes,
                createdAt: image.createdAt,
              })),
            )
            .sort((a, b) => b.createdAt - a.createdAt || a.tag.localeCompare(b.tag)),
        });
      } catch (error) {
        return withEngines({ images: [], error: (error as Error).message });
      }
    },
    'config:save-sections': async (input) => {
      try {
        return services.config.saveSections(input);
      } catch (error) {
        if (error instanceof ConfigError) {
          throw new HandlerError('invalid_input', error.message, error.issues);
        }
        throw error;
      }
    },
    'mcp:test': async ({ name, server }) => {
      let headers: Record<string, string>;
      try {
        // typed values as typed (memory only), the others from their saved references
        headers = services.config.previewMcpHeaders(name, server.headers);
      } catch (error) {
        if (error instanceof ConfigError) {
          throw new HandlerError('invalid_input', error.message, error.issues);
        }
        throw error;
      }
      return testMcpServer(
        name,
        { ...server, headers },
        {
          cwd: services.sessions.open(runtime.sessionId).workspaceDir,
          auth: mcpAuthContext(services),
        },
      );
    },
    'mcp:prompts': async ({ server }) => {
      const servers = services.loadConfig().mcp.servers;
      if (server !== undefined && !servers[server]) {
        throw new HandlerError(
          'not_found',
          `No MCP server "${server}" is configured (configured: ${Object.keys(servers).join(', ') || 'none'}); add [mcp.servers.${server}] in Settings → MCP servers`,
        );
      }
      const session = services.sessions.open(runtime.sessionId);
      const names = server !== undefined ? [server] : Object.keys(servers);
      return Promise.all(
        names.map((name) =>
          promptsWithin(
            (signal) => listServerPrompts(session, { [name]: servers[name]! }, signal),
            name,
            // the server's own request timeout, at most 20 s: the form waits for it
            Math.min(PROMPTS_TIMEOUT_MS, servers[name]!.timeout * 1000),
          ),
        ),
      );
    },
    'dialog:pick-folder': async () => {
      if (!deps.pickFolder) {
        throw new HandlerError(
          'unavailable',
          'A folder picker needs the desktop app: type the folder path instead',
        );
      }
      return { path: await deps.pickFolder() };
    },
  };
}
