/**
 * The workspace snapshot taken on the host, when the engine runs on this machine and the
 * workspace is the bind-mounted session folder (the usual case): a walk of the folder
 * with `lstat`, and a tar of what changed since the previous checkpoint streamed to the
 * archive file. No engine call at all: every Docker API call costs tens of milliseconds
 * under load (one exec ~70 ms here), the walk and the copy of 1 MB a few. ctime decides
 * what changed (a tool cannot set it back, unlike mtime); the mark is taken before the
 * walk, so a file changed during it is taken again next time, never missed. Same archive
 * and listing format as the in-container snapshot (workspace-snapshot.ts), which is used
 * for remote engines.
 */
import {
  createReadStream,
  createWriteStream,
  lstatSync,
  readdirSync,
  readlinkSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ManifestEntry } from './workspace-snapshot';

export interface HostSnapshotResult {
  manifest: ManifestEntry[];
  isFull: boolean;
  bytes: number;
  /** the mark the next snapshot compares ctimes with */
  mark: number;
}

/**
 * The kernel stamps ctime from a coarse clock (one tick, ~4 ms): a change just after the
 * mark can carry a ctime a little before it. Files changed within this slack before the
 * mark (the step's last writes, usually) are taken again by the next snapshot: harmless,
 * where missing one would not be.
 */
const SLACK_MS = 10;

export async function takeHostSnapshot(
  root: string,
  outFile: string,
  since: number | undefined,
): Promise<HostSnapshotResult> {
  const mark = Date.now();
  const manifest: ManifestEntry[] = [];
  const changed: {
    path: string;
    kind: ManifestEntry['kind'];
    stat: Stats;
  }[] = [];
  const walk = (dir: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // removed meanwhile, or not ours to read
    }
    for (const name of names.sort()) {
      const path = prefix ? `${prefix}/${name}` : name;
      let stat: Stats;
      try {
        stat = lstatSync(join(dir, name));
      } catch {
        continue;
      }
      const kind = stat.isDirectory()
        ? 'd'
        : stat.isFile()
          ? 'f'
          : stat.isSymbolicLink()
            ? 'l'
            : 'o';
      manifest.push({ path, kind });
      if (kind !== 'o' && (since === undefined || stat.ctimeMs >= since - SLACK_MS)) {
        changed.push({ path, kind, stat });
      }
      if (kind === 'd') walk(join(dir, name), path);
    }
  };
  walk(root, '');

  const { pack } = await import('tar-stream');
  const archive = pack();
  const out = createWriteStream(outFile, { mode: 0o600 });
  const written = pipeline(archive, out);
  for (const entry of changed) {
    const { stat } = entry;
    const header = {
      name: entry.path,
      mode: stat.mode & 0o7777,
      uid: stat.uid,
      gid: stat.gid,
      mtime: stat.mtime,
    };
    try {
      if (entry.kind === 'd') {
        await new Promise<void>((resolve, reject) =>
          archive
            .entry({ ...header, type: 'directory' }, (e) => (e ? reject(e) : resolve()))
            .end(undefined),
        );
      } else if (entry.kind === 'l') {
        const linkname = readlinkSync(join(root, entry.path));
        await new Promise<void>((resolve, reject) =>
          archive
            .entry({ ...header, type: 'symlink', linkname }, (e) => (e ? reject(e) : resolve()))
            .end(undefined),
        );
      } else {
        // The size is the one stat saw; a file growing meanwhile is cut there and taken
        // whole at the next checkpoint (its ctime is newer than this mark).
        const sink = archive.entry({ ...header, type: 'file', size: stat.size });
        const source = createReadStream(join(root, entry.path), {
          start: 0,
          end: Math.max(0, stat.size - 1),
        });
        if (stat.size > 0) await pipeline(source, sink);
        else {
          source.destroy();
          sink.end(undefined);
        }
      }
    } catch {
      // Deleted between the walk and the read: the next snapshot's listing says so.
    }
  }
  archive.finalize();
  await written;
  return { manifest, isFull: since === undefined, bytes: out.bytesWritten, mark };
}
