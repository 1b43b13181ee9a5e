/**
 * Checks an ssh engine's host key against a known_hosts file, as ssh does: without it,
 * anyone between here and the engine could pose as it and receive every command and
 * file of the sandbox (ssh2 accepts any host key unless it is given a verifier).
 *
 * Understands what ssh writes there: `host`, `[host]:port` and hashed `|1|salt|hash`
 * names, comma-separated, and `@revoked` markers; other markers and wildcard patterns
 * never match (refused, with how to add the key).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface HostKeyVerdict {
  isKnown: boolean;
  /** why not, and what to do */
  reason?: string;
}

/** The name ssh looks up: `host` on port 22, `[host]:port` otherwise. */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

export function checkHostKey(
  knownHostsText: string,
  host: string,
  port: number,
  keyBlob: Buffer,
): HostKeyVerdict {
  const name = knownHostName(host, port);
  const key = keyBlob.toString('base64');
  let sawName = false;
  for (const raw of knownHostsText.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    const marker = fields[0]!.startsWith('@') ? fields.shift() : undefined;
    const [patterns, , blob] = fields;
    if (!patterns || !blob || !namesMatch(patterns, name)) continue;
    if (marker === '@revoked') {
      if (blob === key) return { isKnown: false, reason: `the host key of ${name} is revoked` };
      continue;
    }
    if (marker !== undefined) continue;
    sawName = true;
    if (blob === key) return { isKnown: true };
  }
  return {
    isKnown: false,
    reason: sawName
      ? `the host key of ${name} differs from the one in known_hosts (a changed machine, or ` +
        'someone posing as it); check it before replacing the line'
      : `${name} is not in known_hosts; connect once with ssh ` +
        `(ssh -p ${port} ${host}) to check and add its key`,
  };
}

function namesMatch(patterns: string, name: string): boolean {
  return patterns.split(',').some((pattern) => {
    if (!pattern.startsWith('|1|')) return pattern === name;
    const [salt, hash] = pattern.slice(3).split('|');
    if (!salt || !hash) return false;
    const digest = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return digest === hash;
  });
}

/** ssh2's `hostVerifier` for one engine; `onRefused` keeps the reason for the error shown. */
export function hostVerifier(
  file: string,
  host: string,
  port: number,
  onRefused: (reason: string) => void,
): (key: Buffer) => boolean {
  return (key) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      onRefused(`known_hosts ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`);
      return false;
    }
    const verdict = checkHostKey(text, host, port, key);
    if (!verdict.isKnown) onRefused(`${verdict.reason} (${file})`);
    return verdict.isKnown;
  };
}
