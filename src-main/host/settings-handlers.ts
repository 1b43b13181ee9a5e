/**
 * The contract's handlers for what a run needs besides the model profiles: pre-flight,
 * the sandbox images on the engine, saving `[sandbox]`/`[browser]`/`[mcp]`, testing an
 * MCP server, and the desktop folder picker.
 */
import type { RequestChannel } from '@shared/ipc';
import { ConfigError } from '../runtime/config/load';
import { preflight } from '../runtime/launch/preflight';
import type { Runtime } from '../runtime/runtime';
import { testMcpServer } from '../runtime/tools/mcp/mcp-test';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type SettingsChannel =
  'run:preflight' | 'sandbox:images' | 'config:save-sections' | 'mcp:test' | 'dialog:pick-folder';

export interface SettingsDeps {
  /** the desktop app's native folder dialog; absent in browser mode */
  pickFolder?: () => Promise<string | null>;
}

export function createSettingsHandlers(
  runtime: Runtime,
  deps: SettingsDeps,
): Pick<Handlers, SettingsChannel & RequestChannel> {
  const { services } = runtime;
  return {
    'run:preflight': async (input) => preflight(services, input, { probeModel: true }),
    'sandbox:images': async () => {
      try {
        const images = await services.sandboxes.engine.listImages({ timeoutMs: 5000 });
        return {
          images: images
            .flatMap((image) =>
              image.tags.map((tag) => ({
                tag,
                sizeBytes: image.sizeBytes,
                createdAt: image.createdAt,
              })),
            )
            .sort((a, b) => b.createdAt - a.createdAt || a.tag.localeCompare(b.tag)),
        };
      } catch (error) {
        return { images: [], error: (error as Error).message };
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
    'mcp:test': async ({ name, server }) =>
      testMcpServer(name, server, { cwd: services.sessions.open(runtime.sessionId).workspaceDir }),
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
