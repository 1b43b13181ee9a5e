/**
 * An engine given by address is that engine, whatever DOCKER_HOST says: docker-modem lays
 * explicit options over defaults read from the environment, and `{ socketPath }` alone
 * dialled DOCKER_HOST's TCP host instead. A small HTTP server on a unix socket stands in
 * for the engine (it answers /version and /info as dockerd does).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DockerodeEngine } from './dockerode-engine';

const dir = mkdtempSync(join(tmpdir(), 'wb-engine-conn-'));
const socket = join(dir, 'engine.sock');
let server: Server;
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.endsWith('/version')) {
      res.end(JSON.stringify({ Version: 'fake-27.0', ApiVersion: '1.46' }));
    } else if (req.url?.endsWith('/info')) {
      res.end(JSON.stringify({ NCPU: 8, MemTotal: 16 * 1024 ** 3, ContainersRunning: 3 }));
    } else {
      res.statusCode = 404;
      res.end('{"message":"not here"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
});

afterEach(() => {
  for (const key of ['DOCKER_HOST', 'DOCKER_TLS_VERIFY', 'DOCKER_CERT_PATH']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('an engine given by address', () => {
  it('is dialled on its own socket even with DOCKER_HOST=tcp:// and TLS in the environment', async () => {
    const certs = mkdtempSync(join(tmpdir(), 'wb-certs-'));
    // docker-modem reads these when DOCKER_CERT_PATH is set (it only splits the PEM text)
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    for (const name of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(certs, name), pem);
    process.env['DOCKER_HOST'] = 'tcp://127.0.0.1:9';
    process.env['DOCKER_TLS_VERIFY'] = '1';
    process.env['DOCKER_CERT_PATH'] = certs;
    try {
      const byAddress = new DockerodeEngine({ address: { kind: 'unix', socketPath: socket } });
      expect(await byAddress.ping({ timeoutMs: 3_000 })).toMatchObject({
        version: 'fake-27.0',
        endpoint: `unix://${socket}`,
        isLocal: true,
      });
      expect(await byAddress.capacity({ timeoutMs: 3_000 })).toEqual({
        cpus: 8,
        memoryBytes: 16 * 1024 ** 3,
        runningContainers: 3,
      });
      // the older spelling (dockerHost) had the same fault
      const byHost = new DockerodeEngine({ dockerHost: `unix://${socket}` });
      expect((await byHost.ping({ timeoutMs: 3_000 })).version).toBe('fake-27.0');
    } finally {
      rmSync(certs, { recursive: true, force: true });
    }
  });

  it('says which file is missing from a TLS entry cert_path', () => {
    const empty = mkdtempSync(join(tmpdir(), 'wb-certs-'));
    try {
      expect(
        () =>
          new DockerodeEngine({
            address: { kind: 'tcp', host: 'build-1', port: 2376, certPath: empty },
          }),
      ).toThrow(
        new RegExp(
          `The engine tcp://build-1:2376 \\(TLS\\) needs ca.pem in its cert_path ${empty} .*ENOENT`,
        ),
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
