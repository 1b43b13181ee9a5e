/**
 * Puts a checkpoint's files into a fresh container's workspace: the chain of archives
 * (the last full one, then each delta) is extracted in order through the engine's archive
 * API, then one exec removes what the checkpoint's listing does not have (files deleted
 * in a later step of the chain, files the snapshots left out) and creates its empty
 * folders.
 */
import { readFile } from 'node:fs/promises';
import type { CheckpointManifestEntry } from '../runs/checkpoint-store';
import { runOneShot } from '../sandbox/one-shot-exec';
import type { SnapshotTarget } from './workspace-snapshot';

/** $1 the workspace; stdin: the wanted paths, NUL-terminated, folders first prefixed "d/". */
const CLEANUP = `
cd "$1" || exit 3
w=$(mktemp) h=$(mktemp) d=$(mktemp)
cat > "$w.raw"
tr '\\0' '\\n' < "$w.raw" | sed -n 's|^d/||p' | tr '\\n' '\\0' > "$d"
tr '\\0' '\\n' < "$w.raw" | sed 's|^[fd]/||' | tr '\\n' '\\0' | sort -z > "$w"
find . -mindepth 1 -printf '%P\\0' | sort -z > "$h"
comm -z -23 "$h" "$w" | xargs -0 -r rm -rf --
xargs -0 -r mkdir -p -- < "$d"
rm -f "$w" "$w.raw" "$h" "$d"
`;

export async function restoreWorkspace(
  target: SnapshotTarget,
  archives: readonly string[],
  manifest: readonly CheckpointManifestEntry[],
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  for (const archive of archives) {
    const tar = await readFile(archive);
    if (tar.length === 0) continue;
    await target.engine.putArchive(target.containerId, target.workDir, tar, options);
  }
  // A file the snapshots left out (a cap) is not restored: an older copy from an earlier
  // archive of the chain would pass for it. The cleanup removes it.
  const wanted = manifest
    .filter((e) => e.skipped === undefined)
    .map((e) => `${e.kind === 'd' ? 'd' : 'f'}/${e.path}\0`)
    .join('');
  const result = await runOneShot(
    {
      engine: target.engine,
      containerId: target.containerId,
      user: target.user,
      kill: async () => undefined,
    },
    ['sh', '-c', CLEANUP, 'restore', target.workDir],
    { timeoutMs: 120_000, stdin: wanted, ...(options.signal ? { signal: options.signal } : {}) },
  );
  if (result.exitCode !== 0) {
    throw new Error(
      `Restoring the workspace failed (exit ${result.exitCode ?? 'unknown'}): ${result.stderr.slice(0, 300)}`,
    );
  }
}
