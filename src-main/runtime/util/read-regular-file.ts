/**
 * Reads a text file that must be an ordinary file of sane size (issue 12 item 8): a FIFO
 * named config.toml hung the app on open, and a symlink to /dev/zero was read until 16.9 GB.
 * The file is opened without blocking (a FIFO open returns at once), checked on the open
 * descriptor (no race between the check and the read), and read no further than the cap.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

export class FileReadError extends Error {
  constructor(
    message: string,
    /** the errno code when the system refused (ENOENT, EACCES, EISDIR...) */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'FileReadError';
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Opening a FIFO for reading would wait for a writer; O_NONBLOCK makes it return. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The file's text. Throws FileReadError naming the file and what is wrong with it:
 * missing (code ENOENT), not a regular file, larger than `maxBytes`, unreadable.
 */
export function readRegularFile(path: string, maxBytes: number, what = 'The file'): string {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'does not exist' : (error as Error).message;
    throw new FileReadError(`${what} ${path} ${reason}`, code);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw new FileReadError(`${what} ${path} is ${kindOf(stats)}, not a regular file`);
    }
    if (stats.size > maxBytes) {
      throw new FileReadError(
        `${what} ${path} is too large (${stats.size} bytes; at most ${maxBytes})`,
      );
    }
    // The size can change under us (a file still being written): read until the end,
    // growing the buffer, but never past cap + 1 bytes.
    let buffer = Buffer.alloc(Math.min(maxBytes + 1, stats.size + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length > maxBytes) break;
        const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) {
      throw new FileReadError(`${what} ${path} is too large (more than ${maxBytes} bytes)`);
    }
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof FileReadError) throw error;
    throw new FileReadError(
      `${what} ${path} cannot be read: ${(error as Error).message}`,
      (error as NodeJS.ErrnoException).code,
    );
  } finally {
    closeSync(fd);
  }
}
