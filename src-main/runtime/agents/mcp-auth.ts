/**
 * The auth context MCP connections get from the runtime's services: header references
 * read through the config service (`secret:` from the secret store, `env:` from the
 * environment), OAuth tokens kept in the secret store, the consent page opened by the
 * host's opener (the desktop app's browser, the CLI's terminal; never electron here).
 */
import type { McpAuthContext } from '../tools/mcp/mcp-oauth';
import type { RuntimeServices } from './runtime-services';

export function mcpAuthContext(
  services: Pick<RuntimeServices, 'config' | 'openUrl'>,
): McpAuthContext {
  return {
    resolve: (ref) => services.config.resolveRef(ref),
    store: services.config.secrets,
    ...(services.openUrl ? { openUrl: services.openUrl } : {}),
  };
}
