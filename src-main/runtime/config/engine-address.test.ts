import { describe, expect, it } from 'vitest';
import { engineLabel, parseEngineAddress } from './engine-address';
import { sandboxSchema } from './schema';

describe('[sandbox] engines entries', () => {
  it('reads each kind of address', () => {
    expect(parseEngineAddress({ url: 'DOCKER_HOST' })).toEqual({ kind: 'environment' });
    expect(parseEngineAddress({ url: 'unix:///run/podman/podman.sock' })).toEqual({
      kind: 'unix',
      socketPath: '/run/podman/podman.sock',
    });
    expect(parseEngineAddress({ url: 'tcp://build-1:2376', cert_path: '~/.docker/b1' })).toEqual({
      kind: 'tcp',
      host: 'build-1',
      port: 2376,
      certPath: '~/.docker/b1',
    });
    // TLS without a port: Docker's TLS port; plain TCP on loopback: Docker's plain port
    expect(parseEngineAddress({ url: 'tcp://build-1', cert_path: '/c' })).toMatchObject({
      port: 2376,
    });
    expect(parseEngineAddress({ url: 'tcp://127.0.0.1' })).toMatchObject({ port: 2375 });
    expect(parseEngineAddress({ url: 'ssh://ci@build-2:2222' })).toEqual({
      kind: 'ssh',
      host: 'build-2',
      port: 2222,
      username: 'ci',
    });
    expect(engineLabel({ kind: 'tcp', host: 'h', port: 2376, certPath: '/c' })).toBe(
      'tcp://h:2376 (TLS)',
    );
  });

  it('refuses plain TCP to another machine, and says how to fix it', () => {
    expect(parseEngineAddress({ url: 'tcp://10.0.0.5:2375' })).toMatch(
      /needs TLS; add cert_path = "FOLDER" \(with ca.pem, cert.pem and key.pem\)/,
    );
    for (const loopback of ['tcp://localhost:2375', 'tcp://127.0.0.2:2375', 'tcp://[::1]:2375']) {
      expect(typeof parseEngineAddress({ url: loopback }), loopback).toBe('object');
    }
  });

  it('refuses what is not an engine address', () => {
    expect(parseEngineAddress({ url: 'http://x:2375' })).toMatch(/is not an engine address/);
    expect(parseEngineAddress({ url: 'unix://run/docker.sock' })).toMatch(/absolute path/);
    expect(parseEngineAddress({ url: 'unix:///s', cert_path: '/c' })).toMatch(
      /tcp:\/\/ engines only/,
    );
    expect(parseEngineAddress({ url: 'tcp://h:2376/v1', cert_path: '/c' })).toMatch(/no path/);
    expect(parseEngineAddress({ url: 'DOCKER_HOST', cert_path: '/c' })).toMatch(/DOCKER_CERT_PATH/);
  });

  it('is validated by the config schema, entry by entry', () => {
    const good = sandboxSchema.parse({
      engines: ['DOCKER_HOST', { url: 'tcp://b:2376', cert_path: '/c', max_containers: 4 }],
    });
    expect(good.engines).toEqual([
      { url: 'DOCKER_HOST' },
      { url: 'tcp://b:2376', cert_path: '/c', max_containers: 4 },
    ]);
    expect(sandboxSchema.parse({}).engines).toEqual([]);
    const bad = sandboxSchema.safeParse({
      engines: ['unix:///a.sock', 'tcp://10.1.1.1', 'unix:///a.sock', { url: 'x', port: 1 }],
    });
    expect(bad.success).toBe(false);
    const issues = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^engines\.1: tcp:\/\/10\.1\.1\.1: a TCP engine on another machine/),
        expect.stringMatching(/^engines\.3/),
      ]),
    );
  });

  it('refuses an engine listed twice', () => {
    const twice = sandboxSchema.safeParse({
      engines: ['unix:///a.sock', { url: 'unix:///a.sock' }],
    });
    expect(twice.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'engines.1: unix:///a.sock is listed twice',
    ]);
  });
});
