/**
 * The size of a session's workspace folder on the host. The folder is bind-mounted into
 * the container, so the container's limits (read-only root, /tmp size, fsize) do not
 * bound it; a watchdog measures it while commands run (reliability.md S4).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes of regular files under `dir` (symlinks not followed); stops counting above `stopAbove`. */
export async function workspaceBytes(
  dir: string,
  stopAbove = Number.POSITIVE_INFINITY,
): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0 && total <= stopAbove) {
    const current = pending.pop()!;
    let names: string[];
    try {
      names = await readdir(current);
    } catch {
      continue; // vanished or unreadable while we walked: not ours to report
    }
    for (const name of names) {
      const path = join(current, name);
      const stats = await lstat(path).catch(() => null);
      if (!stats) continue;
      if (stats.isDirectory()) pending.push(path);
      else if (stats.isFile()) total += stats.size;
      if (total > stopAbove) break;
    }
  }
  return total;
}

/** "512m", "2g", "800k" or bytes. */
export function parseByteSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)$/i.exec(text.trim());
  if (!match) throw new Error(`"${text}" must look like 512m or 2g`);
  const unit = (match[2] ?? '').toLowerCase();
  const factor = unit === 'g' ? 1024 ** 3 : unit === 'm' ? 1024 ** 2 : unit === 'k' ? 1024 : 1;
  return Math.floor(Number(match[1]) * factor);
}
