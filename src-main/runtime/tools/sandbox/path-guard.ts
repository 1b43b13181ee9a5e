/**
 * Confines file-tool paths to the sandbox workspace (reliability.md S13). Two checks:
 * lexically here (no `..` escape, nothing outside the workspace, no `~`, no NUL, no
 * absurd lengths), and after symlink resolution inside the container (see
 * workspace-files.ts), so a link to /etc cannot be followed out. The original accepted
 * any absolute path (openmanus.md 4.4 `_safe_resolve_path`).
 */
import { posix } from 'node:path';

export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

/** A file-tool request that cannot be done as asked; the message is for the model. */
export class FileToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileToolError';
  }
}

export class PathError extends FileToolError {
  constructor(message: string) {
    super(message);
    this.name = 'PathError';
  }
}

/** The absolute, normalized path inside `workDir`, or a PathError saying why not. */
export function confinePath(input: string, workDir: string): string {
  const path = input.trim();
  if (path === '') throw new PathError('The path is empty');
  if (path.includes('\0')) throw new PathError('The path contains a NUL byte');
  if (path === '~' || path.startsWith('~/')) {
    throw new PathError(`"~" is not expanded here; use a path under ${workDir}`);
  }
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
    throw new PathError(`The path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  const absolute = posix.normalize(posix.isAbsolute(path) ? path : posix.join(workDir, path));
  const resolved = absolute.length > 1 ? absolute.replace(/\/+$/, '') : absolute;
  if (!isInside(resolved, workDir)) {
    throw new PathError(
      `The path ${input} is outside the workspace; files can only be read and written under ${workDir}`,
    );
  }
  for (const name of resolved.split('/')) {
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
      throw new PathError(`A name in the path is longer than ${MAX_NAME_BYTES} bytes`);
    }
  }
  return resolved;
}

/** `path` is `root` or below it (both absolute and normalized). */
export function isInside(path: string, root: string): boolean {
  const base = root.replace(/\/+$/, '') || '/';
  if (base === '/') return path.startsWith('/');
  return path === base || path.startsWith(`${base}/`);
}
