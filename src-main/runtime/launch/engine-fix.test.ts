/** Issue 26 item 11: preflight's fix for an engine that does not answer names the right one. */
import { describe, expect, it } from 'vitest';
import { engineFix } from './preflight';

describe('engineFix', () => {
  it('says to start Docker only for a local engine', () => {
    expect(engineFix([], undefined)).toMatch(/systemctl start docker/);
    expect(engineFix(['unix:///run/podman/podman.sock'], 'ssh://x@y')).toMatch(/systemctl/);
    expect(engineFix([], 'unix:///var/run/docker.sock')).toMatch(/systemctl/);
  });

  it('points at the ssh or tcp engines, not at the local Docker', () => {
    const fix = engineFix(['ssh://ci@build-2', 'unix:///var/run/docker.sock']);
    expect(fix).toMatch(/ssh:\/\/ci@build-2/);
    expect(fix).toMatch(/\[sandbox\] engines/);
    expect(fix).not.toMatch(/systemctl/);
    expect(engineFix([], 'ssh://me@box')).toMatch(/ssh:\/\/me@box.*DOCKER_HOST/);
    expect(engineFix(['DOCKER_HOST'], 'tcp://10.0.0.5:2376')).toMatch(/tcp:\/\/10\.0\.0\.5/);
  });
});
