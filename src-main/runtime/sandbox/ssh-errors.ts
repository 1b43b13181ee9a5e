/**
 * Failures of an `ssh://` engine worded for ssh (issue 26 item 11): a refused login came
 * through as ssh2's bare "All configured authentication methods failed", and an sshd that
 * was not listening as "the Docker engine refused the connection … `sudo systemctl start
 * docker`", which sends the user to restart a Docker that was never the problem.
 */
import { EngineUnavailableError, errorCode, isConnectError } from './errors';

/** The ssh2 error levels this file words; anything else is left to the engine's rules. */
type SshLevel = 'client-authentication' | 'client-socket' | 'client-timeout';

function levelOf(error: unknown): SshLevel | undefined {
  const level = (error as { level?: unknown } | null)?.level;
  return level === 'client-authentication' ||
    level === 'client-socket' ||
    level === 'client-timeout'
    ? level
    : undefined;
}

/** How to try the same login by hand, with the port when it is not 22. */
function sshCommand(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    const who = url.username ? `${decodeURIComponent(url.username)}@${url.hostname}` : url.hostname;
    return `ssh ${url.port ? `-p ${url.port} ` : ''}${who} docker version`;
  } catch {
    return 'ssh USER@HOST docker version';
  }
}

/** The EngineUnavailableError for an ssh engine's failure, or undefined when not ssh's own. */
export function sshFailure(
  error: unknown,
  endpoint: string,
  agentSocket: string | undefined,
): EngineUnavailableError | undefined {
  if (!endpoint.startsWith('ssh://')) return undefined;
  const level = levelOf(error);
  const code = errorCode(error);
  const trial = `Try \`${sshCommand(endpoint)}\` in a terminal.`;
  if (level === 'client-authentication') {
    const agent = agentSocket
      ? `none of the keys in your ssh agent (SSH_AUTH_SOCK=${agentSocket}) was accepted`
      : 'no ssh agent is running for the workbench (SSH_AUTH_SOCK is not set), so it had no key to offer';
    return new EngineUnavailableError(
      `The engine ${endpoint} refused the ssh login: ${agent}. Add your key to the agent ` +
        '(`ssh-add`), check the user in the url ([sandbox] engines in config.toml), and that the ' +
        `key is in that user's authorized_keys there. ${trial}`,
      { cause: error },
    );
  }
  if (level === 'client-timeout' || level === 'client-socket' || isConnectError(error)) {
    const why =
      code === 'ECONNREFUSED'
        ? 'nothing accepts ssh connections on that host and port'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host name does not resolve'
          : level === 'client-timeout'
            ? 'the ssh handshake timed out'
            : `the connection failed (${code ?? (error as Error).message})`;
    return new EngineUnavailableError(
      `Cannot reach the engine ${endpoint} over ssh: ${why}. Check the host and port in ` +
        `[sandbox] engines (config.toml) and that sshd runs there. ${trial}`,
      { cause: error },
    );
  }
  return undefined;
}
