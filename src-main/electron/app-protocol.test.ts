import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../host/csp';
import { handleAppProtocol } from './app-protocol';
import { net, protocol } from './testing/electron-mock';

let handler: (request: { url: string }) => Promise<Response>;

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'wb-bundle-'));
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<html>ui</html>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'outside the bundle');
  symlinkSync(join(root, 'secret.txt'), join(dir, 'link.txt'));
  // net.fetch of a file: URL, as Electron does it
  net.fetch.mockImplementation(async (url: string) => {
    try {
      return new Response(readFileSync(fileURLToPath(url)));
    } catch {
      return new Response(null, { status: 404 });
    }
  });
  handleAppProtocol(dir);
  handler = protocol.handle.mock.calls.at(-1)?.[1] as typeof handler;
});

describe('app:// protocol (E5 header, E8 traversal)', () => {
  it('serves the bundle with the CSP header', async () => {
    const res = await handler({ url: 'app://workbench/' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<html>ui</html>');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await handler({ url: 'app://workbench/assets/app.js' })).status).toBe(200);
  });

  it('never serves a byte from outside the bundle', async () => {
    const attempts = [
      'app://workbench/../secret.txt',
      'app://workbench/%2e%2e/secret.txt',
      'app://workbench/%2e%2e%2fsecret.txt',
      'app://workbench/..%5csecret.txt',
      'app://workbench//etc/passwd',
      'app://workbench/%2fetc%2fpasswd',
      'app://workbench/link.txt',
      'app://workbench/index.html%00.js',
      'app://workbench/nope.js',
      'app://other-host/index.html',
    ];
    for (const url of attempts) {
      const res = await handler({ url });
      const body = await res.text();
      expect(res.status, url).toBe(404);
      expect(body).not.toContain('outside the bundle');
      expect(body).not.toContain('root:');
    }
  });
});
