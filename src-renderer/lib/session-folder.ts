/**
 * The host folder a run works in when the user chose none: its session's workspace,
 * `<workspacesDir>/<sessionId>` (the sandbox sees it at /workspace). Joined with the
 * separator the host's own path uses, so a Windows host gets a Windows path.
 */
export function sessionFolder(workspacesDir: string, sessionId: string): string {
  const separator = workspacesDir.includes('\\') && !workspacesDir.includes('/') ? '\\' : '/';
  const base = workspacesDir.endsWith(separator) ? workspacesDir.slice(0, -1) : workspacesDir;
  return `${base}${separator}${sessionId}`;
}
