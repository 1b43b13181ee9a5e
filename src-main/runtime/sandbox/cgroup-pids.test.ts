import { describe, expect, it } from 'vitest';
import { pidsFileOf } from './cgroup-pids';

describe('pidsFileOf', () => {
  it.each([
    [
      'cgroup v1 (cgroupfs driver)',
      '8:pids:/docker/abc\n7:blkio:/docker/abc\n',
      '/r/pids/docker/abc/pids.current',
    ],
    [
      'cgroup v1, shared hierarchy',
      '3:cpu,pids:/docker/abc\n',
      '/r/cpu,pids/docker/abc/pids.current',
    ],
    [
      'cgroup v2 (systemd driver)',
      '0::/system.slice/docker-abc.scope\n',
      '/r/system.slice/docker-abc.scope/pids.current',
    ],
    ['no pids controller', '7:blkio:/docker/abc\n', null],
  ])('%s', (_, text, expected) => {
    expect(pidsFileOf(text, '/r')).toBe(expected);
  });
});
