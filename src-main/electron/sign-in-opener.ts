/**
 * The desktop app shows an MCP server's OAuth consent page in the user's browser
 * (`shell.openExternal`, injected so the runtime never imports electron). Only http(s)
 * pages are opened: the URL comes from a remote server's metadata.
 */
import type { SignInRequest } from '../runtime/tools/mcp/mcp-oauth';

export function desktopSignInOpener(
  openExternal: (url: string) => Promise<void>,
): (request: SignInRequest) => Promise<void> {
  return async ({ server, url }) => {
    const protocol = new URL(url).protocol;
    if (protocol !== 'https:' && protocol !== 'http:') {
      throw new Error(
        `MCP server "${server}" gave a sign-in page that is not a web page (${protocol})`,
      );
    }
    await openExternal(url);
  };
}
