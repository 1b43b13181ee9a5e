/**
 * File operations of the editor on the sandbox's workspace. Contents move through the
 * engine's archive API; the few things that need a process (resolving symlinks, listing
 * a folder, creating parent folders, removing a file) run as exec argv with the path as
 * its own argument, never spliced into a shell string (fixes openmanus.md 7.2 item 14).
 */
import { posix } from 'node:path';
import type { Sandbox } from '../../sandbox/sandbox';
import { FileToolError, PathError, confinePath, isInside } from './path-guard';

/** The editor refuses bigger files: the model could not read them anyway. */
export const MAX_EDIT_BYTES = 5 * 1024 * 1024;
const HELPER_TIMEOUT_MS = 30_000;

export type PathKind = 'file' | 'directory' | 'missing' | 'other';

export interface PathInfo {
  /** the path as the user gave it, made absolute */
  path: string;
  /** with symlinks resolved */
  real: string;
  kind: PathKind;
  size: number;
  mode: number;
}

/** Prints the resolved path, its kind, size and mode, NUL-separated. The path is $1. */
const PROBE_SCRIPT = [
  'p=$(realpath -m -- "$1") || exit 3',
  'if [ -d "$p" ]; then k=directory; elif [ -f "$p" ]; then k=file; elif [ -e "$p" ]; then k=other; else k=missing; fi',
  'printf "%s\\0%s\\0" "$p" "$k"',
  'if [ "$k" = file ]; then stat -c "%s %a" -- "$p"; fi',
].join('\n');

export class WorkspaceFiles {
  constructor(
    private readonly sandbox: Sandbox,
    private readonly signal?: AbortSignal,
  ) {}

  get workDir(): string {
    return this.sandbox.workDir;
  }

  /** Confines the path and resolves it inside the container. */
  async probe(input: string): Promise<PathInfo> {
    const path = confinePath(input, this.workDir);
    const result = await this.sandbox.exec(['bash', '-c', PROBE_SCRIPT, 'wb-probe', path], {
      timeoutMs: HELPER_TIMEOUT_MS,
      ...this.signalOption(),
    });
    if (result.exitCode !== 0) {
      throw new FileToolError(
        `Could not resolve ${path}: ${result.stderr.trim() || 'unknown error'}`,
      );
    }
    const [real = '', kind = 'missing', stat = ''] = result.stdout.split('\0');
    if (!isInside(real, this.workDir)) {
      throw new PathError(
        `The path ${input} leads outside the workspace (to ${real}) through a symbolic link`,
      );
    }
    const [size = '0', mode = '644'] = stat.trim().split(' ');
    return {
      path,
      real,
      kind: kind as PathKind,
      size: Number(size),
      mode: parseInt(mode, 8),
    };
  }

  /** Reads a text file; binary and oversized files are refused with a reason. */
  async readText(info: PathInfo): Promise<string> {
    if (info.size > MAX_EDIT_BYTES) {
      throw new FileToolError(
        `${info.path} is ${info.size} bytes; the editor handles files up to ${MAX_EDIT_BYTES} bytes. ` +
          'Use bash (head, sed -n, grep -n) to look at parts of it.',
      );
    }
    const entry = await this.sandbox.readFile(info.real, this.signalOption());
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(entry.data);
    } catch {
      throw new FileToolError(
        `${info.path} is not a UTF-8 text file (${entry.data.length} bytes); ` +
          'inspect binary files with bash or python_execute instead.',
      );
    }
  }

  /** Writes a text file, creating missing parent folders; keeps `mode` when given. */
  async writeText(info: PathInfo, text: string, mode?: number): Promise<void> {
    const dir = posix.dirname(info.real);
    const made = await this.sandbox.exec(['mkdir', '-p', '--', dir], {
      timeoutMs: HELPER_TIMEOUT_MS,
      ...this.signalOption(),
    });
    if (made.exitCode !== 0) {
      throw new FileToolError(`Could not create the folder ${dir}: ${made.stderr.trim()}`);
    }
    await this.sandbox.writeFile(info.real, text, {
      ...(mode !== undefined ? { mode } : {}),
      ...this.signalOption(),
    });
  }

  async remove(info: PathInfo): Promise<void> {
    const result = await this.sandbox.exec(['rm', '-f', '--', info.real], {
      timeoutMs: HELPER_TIMEOUT_MS,
      ...this.signalOption(),
    });
    if (result.exitCode !== 0)
      throw new FileToolError(`Could not remove ${info.path}: ${result.stderr}`);
  }

  /** Files and folders up to two levels deep, hidden ones left out (as the original). */
  async listDirectory(info: PathInfo): Promise<string> {
    const result = await this.sandbox.exec(
      ['find', info.real, '-maxdepth', '2', '-not', '-path', '*/.*'],
      { timeoutMs: HELPER_TIMEOUT_MS, ...this.signalOption() },
    );
    if (result.exitCode !== 0 && !result.stdout) {
      throw new FileToolError(`Could not list ${info.path}: ${result.stderr.trim()}`);
    }
    // Show the paths as the user named them, not as the symlink-resolved ones.
    if (info.real === info.path) return result.stdout;
    return result.stdout
      .split('\n')
      .map((line) => (line.startsWith(info.real) ? info.path + line.slice(info.real.length) : line))
      .join('\n');
  }

  private signalOption(): { signal?: AbortSignal } {
    return this.signal ? { signal: this.signal } : {};
  }
}
