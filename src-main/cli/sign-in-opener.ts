/**
 * The CLI shows an MCP server's OAuth consent page: the URL on stderr (always: the user
 * may be on another machine), and opened with xdg-open (`open` on macOS) when there is a
 * display to open it on.
 */
import { spawn } from 'node:child_process';
import type { SignInRequest } from '../runtime/tools/mcp/mcp-oauth';

export function cliSignInOpener(
  env: NodeJS.ProcessEnv = process.env,
  write: (text: string) => void = (text) => void process.stderr.write(text),
): (request: SignInRequest) => void {
  return ({ server, url }) => {
    write(
      `[workbench] MCP server "${server}" needs you to sign in. Open this page in a browser:\n  ${url}\n`,
    );
    const opener =
      process.platform === 'darwin'
        ? 'open'
        : process.platform === 'linux' && (env['DISPLAY'] || env['WAYLAND_DISPLAY'])
          ? 'xdg-open'
          : null;
    if (!opener) return;
    try {
      const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
      child.on('error', () => undefined); // no opener installed: the printed URL remains
      child.unref();
    } catch {
      // the printed URL remains
    }
  };
}
