/**
 * The workspace snapshot taken on the host, when the engine runs on this machine and the
 * workspace is the bind-mounted session folder (the usual case): a walk of the folder and
 * a tar of what changed since the previous checkpoint, written straight to the archive
 * file. No engine call at all: every Docker API call costs tens of milliseconds under
 * load (one exec ~70 ms here), the walk and the copy of 1 MB a few. ctime decides what
 * changed (a tool cannot set it back, unlike mtime); the mark is taken before the walk,
 * so a file changed during it is taken again next time, never missed. Same archive and
 * listing format as the in-container snapshot (workspace-snapshot.ts), which is used for
 * remote engines and where descriptor-relative lookups are not available.
 *
 * The sandbox writes this folder while the walk reads it, and may swap any name for a
 * symlink to a host file at any moment (issue 24 item 1): the walk holds each folder open
 * and looks every name up in it (dir-fd.ts), opens files with O_NOFOLLOW, and takes type,
 * size and device from the open descriptor, reading only through it. Nothing that is not
 * a regular file or folder on the workspace's own file system is read or descended into.
 *
 * What it may take on disk (issue 24 item 3): sparse files are stored as their data and a
 * map of their holes, a second name of a file as a link to the first, a file that would
 * take the archive past `caps.stepBytes` is left out with the reason, and an archive that
 * would pass `caps.roomBytes` fails with SnapshotLimitError.
 */
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBytes } from '../runs/checkpoint-store';
import {
  closeQuietly,
  listDir,
  lstatAt,
  openDirAt,
  openFileAt,
  openRoot,
  readlinkAt,
} from '../util/dir-fd';
import { copyRange, dataRegions, pacer, READ_BUFFER_BYTES, type Pace } from './file-regions';
import { NO_CAPS, SnapshotLimitError, type SnapshotCaps } from './snapshot-caps';
import {
  BLOCK,
  entryOverhead,
  roundUp,
  sparseStoredSize,
  TarFileWriter,
  type EntryMeta,
  type StagedData,
  type Region,
} from './tar-writer';
import type { ManifestEntry } from './workspace-snapshot';

export { isDirFdSupported as isHostSnapshotSupported } from '../util/dir-fd';

export interface HostSnapshotResult {
  /** every entry; the ones this archive leaves out carry the reason in `skipped` */
  manifest: ManifestEntry[];
  isFull: boolean;
  bytes: number;
  /** the mark the next snapshot compares ctimes with */
  mark: number;
  /** paths whose content (or link, or folder entry) this archive holds */
  archived: string[];
  /** bytes of the files this snapshot left out (their sizes) */
  skippedBytes: number;
}

/**
 * The kernel stamps ctime from a coarse clock (one tick, ~4 ms): a change just after the
 * mark can carry a ctime a little before it. Files changed within this slack before the
 * mark (the step's last writes, usually) are taken again by the next snapshot: harmless,
 * where missing one would not be.
 */
const SLACK_MS = 10;
/** Folders open at once while walking: a deeper nesting is left out (the fd table is shared). */
const MAX_DEPTH = 256;
const END_OF_ARCHIVE = 2 * BLOCK;
/** What a deferred archive holds of its files' bytes in memory; the rest is staged on disk. */
const IN_MEMORY_LIMIT = 64 * 1024 * 1024;

export async function takeHostSnapshot(
  root: string,
  outFile: string,
  since: number | undefined,
  caps: SnapshotCaps = NO_CAPS,
  /** the paths of the previous snapshot's listing: a path not in it is taken whatever its ctime */
  previous?: ReadonlySet<string>,
): Promise<HostSnapshotResult> {
  const mark = Date.now();
  const rootFd = openRoot(root);
  try {
    const out = openSync(outFile, 'w', 0o600);
    let isClosed = false;
    try {
      const walk = new SnapshotWalk(
        fstatSync(rootFd).dev,
        { since, previous },
        caps,
        new TarFileWriter(out, Math.min(caps.stepBytes, caps.roomBytes)),
        undefined,
      );
      await walk.folder(rootFd, '', 0);
      walk.writer.finish();
      // not quietly: some file systems report a failed write (a full disk) only here
      closeSync(out);
      isClosed = true;
      return {
        manifest: walk.manifest,
        isFull: since === undefined,
        bytes: walk.writer.bytes,
        mark,
        archived: walk.archived,
        skippedBytes: walk.skippedBytes,
      };
    } finally {
      if (!isClosed) closeQuietly(out);
    }
  } finally {
    closeQuietly(rootFd);
  }
}

/**
 * A snapshot captured now and archived later (issue 27: checkpoints off the step's path).
 * `write` writes the archive; until then nothing of it is on disk but the staging folder.
 */
export interface HostCapture extends HostSnapshotResult {
  /** Writes the archive to `outFile` from the staged copies, then removes them. */
  write(outFile: string): Promise<void>;
  /** Removes the staged copies (the archive is not wanted). */
  discard(): void;
}

/**
 * The step boundary's part of a host snapshot: the same walk, listing, caps and archive
 * plan as `takeHostSnapshot`, but each changed file's bytes are copied into `stagingDir`
 * (a copy-on-write clone where the file system has one, else an in-kernel copy: no pass
 * through the app's memory) and the archive itself is written later by `write`, while the
 * next step runs. The copies are the boundary's bytes whatever the next step does to the
 * workspace: a hard link would share the inode, and a file rewritten in place (`echo > f`,
 * an append) would change the staged copy too. Sparse files are staged as their data
 * regions only (found by reading, as before). `stagingDir` must not exist (it is made
 * 0700) and belongs to the app, never to the workspace.
 */
export async function captureHostSnapshot(
  root: string,
  stagingDir: string,
  since: number | undefined,
  caps: SnapshotCaps = NO_CAPS,
  /** the paths of the previous snapshot's listing: a path not in it is taken whatever its ctime */
  previous?: ReadonlySet<string>,
): Promise<HostCapture> {
  const mark = Date.now();
  const rootFd = openRoot(root);
  mkdirSync(stagingDir, { mode: 0o700 });
  const discard = () => rmSync(stagingDir, { recursive: true, force: true });
  try {
    const writer = TarFileWriter.deferred(Math.min(caps.stepBytes, caps.roomBytes));
    const walk = new SnapshotWalk(
      fstatSync(rootFd).dev,
      { since, previous },
      caps,
      writer,
      stagingDir,
    );
    await walk.folder(rootFd, '', 0);
    writer.finish();
    return {
      manifest: walk.manifest,
      isFull: since === undefined,
      bytes: writer.bytes,
      mark,
      archived: walk.archived,
      skippedBytes: walk.skippedBytes,
      discard,
      write: async (outFile) => {
        const out = await open(outFile, 'w', 0o600);
        try {
          await writer.writeTo(out);
        } finally {
          // not quietly: some file systems report a failed write (a full disk) only here
          await out.close();
        }
        discard();
      },
    };
  } catch (error) {
    discard();
    throw error;
  } finally {
    closeQuietly(rootFd);
  }
}

class SnapshotWalk {
  readonly manifest: ManifestEntry[] = [];
  readonly archived: string[] = [];
  skippedBytes = 0;
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private readonly pace: Pace = pacer();
  /** inode -> the path it is in this archive under (a second name becomes a link to it) */
  private readonly linked = new Map<number, string>();
  /** inode -> why its first name was left out (the other names are too) */
  private readonly linkSkipped = new Map<number, string>();
  /** staged copies made so far (their names in the staging folder) */
  private staged = 0;
  /** bytes of small files a deferred archive holds in memory until it is written */
  private inMemory = 0;

  constructor(
    private readonly dev: number,
    /** the previous snapshot's mark and listing (none: take everything) */
    private readonly previous: { since: number | undefined; previous?: ReadonlySet<string> },
    private readonly caps: SnapshotCaps,
    readonly writer: TarFileWriter,
    /** a deferred archive: file bytes are copied here now, archived later */
    private readonly stagingDir: string | undefined,
  ) {}

  async folder(dirFd: number, prefix: string, depth: number): Promise<void> {
    let names: string[];
    try {
      names = listDir(dirFd);
    } catch {
      return; // removed meanwhile
    }
    for (const name of names.sort()) {
      await this.pace();
      const path = prefix ? `${prefix}/${name}` : name;
      const stat = lstatAt(dirFd, name);
      // gone, or another file system mounted inside: not the workspace's
      if (!stat || stat.dev !== this.dev) continue;
      const kind = stat.isDirectory()
        ? 'd'
        : stat.isFile()
          ? 'f'
          : stat.isSymbolicLink()
            ? 'l'
            : 'o';
      const entry: ManifestEntry = { path, kind };
      this.manifest.push(entry);
      const { since, previous } = this.previous;
      // A path the previous listing did not have is taken whatever its ctime: a folder
      // moved (`mv dir moved`) gets a new ctime, the files under it keep theirs.
      const isChanged =
        since === undefined ||
        stat.ctimeMs >= since - SLACK_MS ||
        (previous !== undefined && !previous.has(path));
      if (kind === 'd') {
        if (depth >= MAX_DEPTH) {
          entry.skipped = `nested deeper than ${MAX_DEPTH} folders`;
          continue;
        }
        if (isChanged && !this.header(entry, meta(path, stat), 'd')) continue;
        const child = openDirAt(dirFd, name);
        if (child === undefined) continue; // not a folder any more
        try {
          const opened = fstatSync(child);
          if (opened.isDirectory() && opened.dev === this.dev) {
            await this.folder(child, path, depth + 1);
          }
        } finally {
          closeQuietly(child);
        }
      } else if (kind === 'l' && isChanged) {
        const target = readlinkAt(dirFd, name);
        if (target !== undefined) this.header(entry, meta(path, stat), 'l', target);
      } else if (kind === 'f' && isChanged) {
        await this.file(dirFd, name, entry);
      }
    }
  }

  /** A folder or link entry; false when it would pass the step's cap (then left out). */
  private header(entry: ManifestEntry, m: EntryMeta, kind: 'd' | 'l', target = ''): boolean {
    if (!this.fits(entry, entryOverhead(m.path, target), 'its entry')) return false;
    if (kind === 'd') this.writer.directory(m);
    else this.writer.symlink(m, target);
    this.archived.push(entry.path);
    return true;
  }

  private async file(dirFd: number, name: string, entry: ManifestEntry): Promise<void> {
    const fd = openFileAt(dirFd, name);
    if (fd === undefined) return; // a link now, or gone: it changed, the next one sees it
    try {
      // Everything from the descriptor: the name may point elsewhere by now.
      const stat = fstatSync(fd);
      if (!stat.isFile() || stat.dev !== this.dev) return;
      const m = meta(entry.path, stat);
      if (stat.nlink > 1) {
        const first = this.linked.get(stat.ino);
        if (first !== undefined) {
          if (!this.fits(entry, entryOverhead(m.path, first), 'its link entry')) return;
          this.writer.hardLink(m, first);
          this.archived.push(entry.path);
          return;
        }
        const why = this.linkSkipped.get(stat.ino);
        if (why !== undefined) {
          entry.skipped = why;
          return;
        }
      }
      const size = stat.size;
      let regions: Region[] | undefined;
      if (stat.blocks * 512 < size) {
        if (size > this.caps.stepBytes) {
          this.skip(
            entry,
            stat,
            `a sparse file of ${formatBytes(size)} (${formatBytes(stat.blocks * 512)} on disk): ` +
              `over [history] snapshot_step_limit (${formatBytes(this.caps.stepBytes)}), its holes are not searched`,
          );
          return;
        }
        regions = await dataRegions(fd, size, this.buffer, this.pace);
        if (regions.length === 1 && regions[0]!.offset === 0 && regions[0]!.length === size) {
          regions = undefined; // no holes after all (a compressing file system)
        }
      }
      const stored = regions ? sparseStoredSize(size, regions) : roundUp(size);
      if (!this.fits(entry, entryOverhead(m.path) + stored, `its ${formatBytes(stored)}`, stat)) {
        return;
      }
      if (this.stagingDir !== undefined && (regions !== undefined || !this.isHeldInMemory(size))) {
        const staged = this.stage(fd, size, regions);
        if (regions) this.writer.beginSparseFile(m, size, regions);
        else this.writer.beginFile(m, size);
        this.writer.stagedData(await staged);
      } else if (regions) {
        const sink = (chunk: Buffer) => this.writer.data(chunk);
        this.writer.beginSparseFile(m, size, regions);
        for (const r of regions) {
          await copyRange(fd, r.offset, r.length, this.buffer, sink, this.pace);
        }
      } else {
        const sink = (chunk: Buffer) => this.writer.data(chunk);
        this.writer.beginFile(m, size);
        await copyRange(fd, 0, size, this.buffer, sink, this.pace);
      }
      this.writer.endFile();
      if (stat.nlink > 1) this.linked.set(stat.ino, entry.path);
      this.archived.push(entry.path);
    } finally {
      closeQuietly(fd);
    }
  }

  /**
   * A deferred archive keeps a file's bytes in memory (read from the page cache now, like
   * any header) up to a bound per snapshot, and stages a copy on disk beyond it. Memory
   * first: writing a copy on the step's path is throttled like any write when the disk is
   * busy writing back (docs/performance.md, "Checkpoints off the step's path"), and a copy
   * per file costs a handful of calls.
   */
  private isHeldInMemory(size: number): boolean {
    if (this.inMemory + size > IN_MEMORY_LIMIT) return false;
    this.inMemory += size;
    return true;
  }

  /**
   * A copy of the open file's bytes in the staging folder, read through its descriptor
   * (`/proc/self/fd/N` reopens that very inode: no name in the workspace is resolved
   * again). A whole file is cloned or copied by the kernel, then cut to the size taken
   * (it may have grown meanwhile); a sparse file's data regions are copied one after the
   * other, as the archive stores them.
   */
  private async stage(
    fd: number,
    size: number,
    regions: Region[] | undefined,
  ): Promise<StagedData> {
    const file = join(this.stagingDir!, String(this.staged++));
    if (!regions) {
      copyFileSync(`/proc/self/fd/${fd}`, file, constants.COPYFILE_FICLONE);
      // the copy takes the file's mode (0000 too): the app must read it back
      chmodSync(file, 0o600);
      if (statSync(file).size > size) truncateSync(file, size);
      return { file, length: size };
    }
    const out = openSync(file, 'w', 0o600);
    let length = 0;
    try {
      const sink = (chunk: Buffer) => {
        let at = 0;
        while (at < chunk.length) at += writeSync(out, chunk, at, chunk.length - at);
        length += chunk.length;
      };
      for (const r of regions)
        await copyRange(fd, r.offset, r.length, this.buffer, sink, this.pace);
    } finally {
      closeSync(out);
    }
    return { file, length };
  }

  /**
   * Whether `bytes` more fit: past the step's cap the entry is left out (false), past the
   * room the whole snapshot fails.
   */
  private fits(entry: ManifestEntry, bytes: number, what: string, stat?: Stats): boolean {
    const needed = this.writer.bytes + bytes + END_OF_ARCHIVE;
    if (needed > this.caps.stepBytes) {
      this.skip(
        entry,
        stat,
        `${what} would take this step's snapshot past [history] snapshot_step_limit (${formatBytes(this.caps.stepBytes)})`,
      );
      return false;
    }
    if (needed > this.caps.roomBytes) throw new SnapshotLimitError(needed, this.caps.roomBytes);
    return true;
  }

  private skip(entry: ManifestEntry, stat: Stats | undefined, reason: string): void {
    entry.skipped = reason;
    this.skippedBytes += stat?.size ?? 0;
    if (stat && stat.nlink > 1) this.linkSkipped.set(stat.ino, reason);
  }
}

function meta(path: string, stat: Stats): EntryMeta {
  return { path, mode: stat.mode, uid: stat.uid, gid: stat.gid, mtimeMs: stat.mtimeMs };
}
