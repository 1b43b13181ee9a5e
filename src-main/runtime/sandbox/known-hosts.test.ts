import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkHostKey, knownHostName } from './known-hosts';

const key = Buffer.from('the engine host key blob');
const other = Buffer.from('someone else');
const b64 = key.toString('base64');

function hashed(name: string, salt = Buffer.from('0123456789abcdefghij')): string {
  const hash = createHmac('sha1', salt).update(name).digest('base64');
  return `|1|${salt.toString('base64')}|${hash}`;
}

describe('known_hosts', () => {
  it('names a host as ssh does: host on port 22, [host]:port otherwise', () => {
    expect(knownHostName('build-2', 22)).toBe('build-2');
    expect(knownHostName('127.0.0.1', 2222)).toBe('[127.0.0.1]:2222');
  });

  it('accepts the key listed for the host, in plain, list or hashed form', () => {
    expect(checkHostKey(`build-2 ssh-ed25519 ${b64}\n`, 'build-2', 22, key).isKnown).toBe(true);
    expect(
      checkHostKey(`a,[127.0.0.1]:2222,b ssh-ed25519 ${b64}`, '127.0.0.1', 2222, key).isKnown,
    ).toBe(true);
    expect(
      checkHostKey(`${hashed('[127.0.0.1]:2222')} ssh-ed25519 ${b64}`, '127.0.0.1', 2222, key)
        .isKnown,
    ).toBe(true);
    // the same host on another port is another entry
    expect(checkHostKey(`127.0.0.1 ssh-ed25519 ${b64}`, '127.0.0.1', 2222, key).isKnown).toBe(
      false,
    );
  });

  it('refuses an unknown host and says how to add it', () => {
    expect(checkHostKey('# nothing\n', 'build-2', 22, key)).toEqual({
      isKnown: false,
      reason:
        'build-2 is not in known_hosts; connect once with ssh (ssh -p 22 build-2) to check and add its key',
    });
  });

  it('refuses a changed key, and a revoked one even when also listed', () => {
    expect(checkHostKey(`build-2 ssh-ed25519 ${b64}`, 'build-2', 22, other).reason).toMatch(
      /differs from the one in known_hosts/,
    );
    const text = `@revoked build-2 ssh-ed25519 ${b64}\nbuild-2 ssh-ed25519 ${b64}`;
    expect(checkHostKey(text, 'build-2', 22, key)).toEqual({
      isKnown: false,
      reason: 'the host key of build-2 is revoked',
    });
  });
});
