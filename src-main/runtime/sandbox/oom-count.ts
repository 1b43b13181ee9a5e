/**
 * How many times the memory cgroup of a sandbox has OOM-killed a process so far (cgroup
 * v2 `memory.events`, else v1 `memory.oom_control`), read with a one-shot exec. null when
 * it cannot be read (the container may be gone).
 */
import type { ContainerEngine } from './engine';
import { runOneShot } from './one-shot-exec';

export async function readOomKillCount(
  engine: ContainerEngine,
  containerId: string,
  user: string,
): Promise<number | null> {
  try {
    const read = await runOneShot(
      { engine, containerId, user, kill: async () => undefined },
      [
        'bash',
        '-c',
        'cat /sys/fs/cgroup/memory.events 2>/dev/null || cat /sys/fs/cgroup/memory/memory.oom_control',
      ],
      { timeoutMs: 10_000 },
    );
    const match = /^oom_kill\s+(\d+)/m.exec(read.stdout);
    return match ? Number(match[1]) : 0;
  } catch {
    return null;
  }
}
