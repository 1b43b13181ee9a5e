/**
 * A snapshot of the sandbox's workspace at a step boundary, taken inside the container
 * through the engine interface (so any engine behind `ContainerEngine` works): one exec
 * writes a tar of the files whose ctime is newer than the previous checkpoint's marker to
 * stdout (streamed to a file on the host, never held in memory) and the full listing of
 * the workspace, with the processes still running, to stderr. Folders are archived too
 * (entries only: --no-recursion), so a restore recreates them owned by the sandbox user. ctime, not mtime: a tool
 * that sets mtimes (`cp -p`, `tar x`, `touch -d`) cannot hide a change from it. The first
 * checkpoint of a container (no marker yet, or /tmp lost in a restart) is a full archive.
 * Why this method and not the engine's archive API or `docker commit`: docs/time-travel.md.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { formatBytes } from '../runs/checkpoint-store';
import type { ContainerEngine } from '../sandbox/engine';
import { runOneShot } from '../sandbox/one-shot-exec';
import { NO_CAPS, SnapshotLimitError, type SnapshotCaps } from './snapshot-caps';

export interface SnapshotTarget {
  engine: ContainerEngine;
  containerId: string;
  /** uid:gid the exec runs as (the sandbox user) */
  user: string;
  workDir: string;
}

export type EntryKind = 'f' | 'd' | 'l' | 'o';

export interface ManifestEntry {
  path: string;
  kind: EntryKind;
  /** why the snapshot left it out (too large, a cap): a restore does not have it */
  skipped?: string;
}

export interface SnapshotResult {
  /** every entry of the workspace at this checkpoint (the deleted ones are those missing) */
  manifest: ManifestEntry[];
  /** paths this archive holds */
  archived: string[];
  /** bytes of the files left out (larger than the step's cap) */
  skippedBytes: number;
  /** the archive holds every file (the container's first checkpoint), not only the changed ones */
  isFull: boolean;
  /** bytes of the archive written */
  bytes: number;
  /** command lines of processes left running at the boundary (they are not restored) */
  processes: string[];
}

// Per run (a session's container is shared by its runs, and each run keeps its own chain).
const MARK = '/tmp/.wb-checkpoint-"$run"';
const NEXT = '/tmp/.wb-checkpoint-"$run".next';

/**
 * $1 the workspace, $2 "full" or "delta", $3 the run id (its marker), $4 the largest file
 * taken (bytes; a larger one is left out and listed as such), $5 the most bytes of
 * archive streamed (one more tells the host the cap was passed; tar stops there). The
 * listing on stderr: NUL-terminated records (`S <pid>` the script itself, `M
 * full|delta`, `E <type> <path>` per entry, `C <type> <path>` for one this archive
 * holds, `X <size> <path>` for a file left out), then `H` and `head -v` of every
 * process's stat and cmdline (the script's own processes are left out of the report).
 * One find writes the listing and the archive's file list. `--sparse` in the PAX format:
 * holes cost nothing, stored as PAX 1.0 sparse entries (the engine's putArchive refuses
 * GNU tar's default, old-style 'S' entries); atime, ctime and sub-second mtime are left
 * out of the PAX headers (they would add a header to every file). Hard links are stored
 * once (GNU tar's default).
 */
const SCRIPT = `
run="$3" max="$4" cap="$5"
cd "$1" || exit 3
touch ${NEXT} || exit 4
printf 'S %s\\0' "$$" >&2
mode=delta; [ -e ${MARK} ] && [ "$2" != full ] || mode=full
printf 'M %s\\0' "$mode" >&2
list=$(mktemp) || exit 6
if [ "$mode" = delta ]; then set -- -cnewer ${MARK}; else set -- -true; fi
find . -mindepth 1 \\( "$@" -type f -size +"$max"c -printf 'X %s %P\\0' \\) \\
  -o \\( "$@" -printf 'C %y %P\\0' -fprintf "$list" '%P\\0' \\) -o -printf 'E %y %P\\0' >&2
# one process for the whole table (a loop with a subshell per process cost ~40 ms)
printf 'H\\0' >&2
head -v -c 400 /proc/[0-9]*/stat /proc/[0-9]*/cmdline >&2 2>/dev/null
{ tar --sparse --format=posix --pax-option=delete=atime,delete=ctime,delete=mtime \\
  --null --no-recursion -T "$list" -cf -; echo $? > "$list.rc"; } | head -c "$cap"
rc=$(cat "$list.rc" 2>/dev/null)
rm -f "$list" "$list.rc"
[ "$rc" = 0 ] || exit 5
mv ${NEXT} ${MARK}
`;

/** Only the processes left running (for snapshots taken on the host: host-snapshot.ts). */
export async function listBackgroundProcesses(
  target: SnapshotTarget,
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const errChunks: Buffer[] = [];
  await runOneShot({ ...target, kill: async () => undefined }, ['sh', '-c', PROCESSES_SCRIPT], {
    timeoutMs: 30_000,
    outputCapBytes: 4096,
    onStderr: (chunk) => errChunks.push(chunk),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return parseListing(Buffer.concat(errChunks).toString('utf8')).processes;
}

const PROCESSES_SCRIPT = `
printf 'S %s\\0' "$$" >&2
printf 'H\\0' >&2
head -v -c 400 /proc/[0-9]*/stat /proc/[0-9]*/cmdline >&2 2>/dev/null
exit 0
`;

/**
 * Takes the snapshot into `outFile` (a tar of paths relative to the workspace). A file
 * larger than `caps.stepBytes` is left out and listed so; an archive that would pass
 * either cap fails the snapshot with SnapshotLimitError (the stream stops there).
 */
export async function takeSnapshot(
  target: SnapshotTarget,
  outFile: string,
  options: { isFull?: boolean; signal?: AbortSignal; runId: string; caps?: SnapshotCaps },
): Promise<SnapshotResult> {
  const caps = options.caps ?? NO_CAPS;
  const cap = Math.min(caps.stepBytes, caps.roomBytes, Number.MAX_SAFE_INTEGER - 1);
  const out = createWriteStream(outFile, { mode: 0o600 });
  let bytes = 0;
  const errChunks: Buffer[] = [];
  let writeError: Error | undefined;
  out.on('error', (error) => (writeError = error));
  const result = await runOneShot(
    {
      engine: target.engine,
      containerId: target.containerId,
      user: target.user,
      kill: async () => undefined,
    },
    [
      'sh',
      '-c',
      SCRIPT,
      'checkpoint',
      target.workDir,
      options.isFull ? 'full' : 'delta',
      options.runId,
      String(Math.min(caps.stepBytes, Number.MAX_SAFE_INTEGER)),
      String(cap + 1),
    ],
    {
      timeoutMs: 120_000,
      // The output is streamed below; the capture buffers only need to stay small.
      outputCapBytes: 4096,
      onStdout: (chunk) => {
        const room = cap - bytes;
        bytes += chunk.length;
        // Past the cap nothing more is written (the script stops one byte after it).
        // The engine's stream cannot be paused from here; the file stream buffers meanwhile.
        if (room > 0) out.write(room >= chunk.length ? chunk : chunk.subarray(0, room));
      },
      onStderr: (chunk) => errChunks.push(chunk),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  out.end();
  await once(out, 'close');
  if (writeError) throw writeError;
  if (bytes > cap) throw new SnapshotLimitError(bytes, cap);
  const listing = parseListing(Buffer.concat(errChunks).toString('utf8'), caps.stepBytes);
  if (result.exitCode !== 0) {
    throw new Error(
      `The workspace snapshot failed (exit ${result.exitCode ?? 'unknown'}${result.timedOut ? ', timed out' : ''}): ${listing.errors.join(' ').slice(0, 300)}`,
    );
  }
  return {
    manifest: listing.manifest,
    archived: listing.archived,
    skippedBytes: listing.skippedBytes,
    isFull: listing.isFull,
    bytes,
    processes: listing.processes,
  };
}

interface Listing {
  manifest: ManifestEntry[];
  archived: string[];
  skippedBytes: number;
  isFull: boolean;
  processes: string[];
  errors: string[];
}

function parseListing(all: string, maxFile = Infinity): Listing {
  const manifest: ManifestEntry[] = [];
  const archived: string[] = [];
  let skippedBytes = 0;
  const errors: string[] = [];
  let self = '';
  let isFull = true;
  const split = all.indexOf('\0H\0');
  const text = split < 0 ? all : all.slice(0, split + 1);
  const procs = split < 0 ? [] : parseProcesses(all.slice(split + 3));
  for (const record of text.split('\0')) {
    const skipped = /^X (\d+) ([^]*)$/.exec(record);
    if (record.startsWith('E ') || record.startsWith('C ')) {
      const kind = record.charAt(2);
      const path = record.slice(4);
      manifest.push({ kind: 'fdl'.includes(kind) ? (kind as EntryKind) : 'o', path });
      if (record.startsWith('C ')) archived.push(path);
    } else if (skipped) {
      const size = Number(skipped[1]);
      skippedBytes += size;
      manifest.push({
        kind: 'f',
        path: skipped[2]!,
        skipped: `its ${formatBytes(size)} are over [history] snapshot_step_limit (${formatBytes(maxFile)})`,
      });
    } else if (record.startsWith('S ')) {
      self = record.slice(2);
    } else if (record.startsWith('M ')) {
      isFull = record.slice(2) === 'full';
    } else if (record.trim()) {
      errors.push(record.trim());
    }
  }
  return {
    manifest,
    archived,
    skippedBytes,
    isFull,
    processes: backgroundProcesses(procs, self),
    errors,
  };
}

/** `head -v` of /proc/PID/stat and /proc/PID/cmdline files: pid, parent pid, command line. */
function parseProcesses(text: string): { pid: string; ppid: string; cmd: string }[] {
  const byPid = new Map<string, { pid: string; ppid: string; cmd: string }>();
  const header = /==> \/proc\/(\d+)\/(stat|cmdline) <==\n/g;
  const marks = [...text.matchAll(header)];
  marks.forEach((mark, i) => {
    const pid = mark[1]!;
    const start = mark.index + mark[0].length;
    const body = text.slice(start, marks[i + 1]?.index ?? text.length).replace(/\n\n$/, '');
    const proc = byPid.get(pid) ?? { pid, ppid: '', cmd: '' };
    if (mark[2] === 'stat') proc.ppid = /\) \S+ (\d+)/.exec(body)?.[1] ?? '';
    else proc.cmd = body.split('\0').join(' ').trim();
    byPid.set(pid, proc);
  });
  return [...byPid.values()];
}

/**
 * What the agent left running: not the container's init and keep-alive (`sleep
 * infinity`), not the bash tool's own shells, not this snapshot's script and its pipes.
 */
function backgroundProcesses(
  procs: { pid: string; ppid: string; cmd: string }[],
  self: string,
): string[] {
  const mine = new Set([self]);
  // The script's children (subshells, tr, sed, find, tar) descend from it.
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  return procs
    .filter((p) => p.pid !== '1' && !mine.has(p.pid) && p.cmd !== '')
    .filter((p) => p.cmd !== 'sleep infinity' && !/^bash --noprofile --norc$/.test(p.cmd))
    .filter((p) => !/^\/?\S*docker-init\b/.test(p.cmd))
    .map((p) => p.cmd);
}
