/**
 * Files in and out of containers as tar archives, through the engine's archive API, on
 * `tar-stream` (the library dockerode's own stack uses). Files travel as bytes in
 * archives, never through a shell command line, so no path or content can be misread as
 * shell syntax (fixes the quoting holes of openmanus.md 7.2 item 14). Reading
 * understands what engines produce: ustar, PAX extended headers (long or non-ASCII
 * names, big sizes) and GNU long names.
 */
import { Readable } from 'node:stream';
import type { Header } from 'tar-stream';

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface TarEntry {
  path: string;
  type: TarEntryType;
  /** permission bits, e.g. 0o644 */
  mode: number;
  uid: number;
  gid: number;
  mtime: Date;
  data: Buffer;
  linkTarget?: string;
}

export interface TarFileInput {
  path: string;
  data?: Buffer | string;
  type?: 'file' | 'directory';
  mode?: number;
  uid?: number;
  gid?: number;
  mtime?: Date;
}

/** One archive of `entries`, in memory (what the engine's putArchive takes). */
export async function createTar(entries: readonly TarFileInput[]): Promise<Buffer> {
  // tar-stream loads with the first file transfer, not with every run (issue 16 item 7)
  const { pack } = await import('tar-stream');
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    if (entry.path.includes('\0')) throw new Error('tar: a path cannot contain a NUL byte');
    const isDirectory = entry.type === 'directory';
    const data = isDirectory
      ? undefined
      : typeof entry.data === 'string'
        ? Buffer.from(entry.data, 'utf8')
        : (entry.data ?? Buffer.alloc(0));
    const header: Partial<Header> & Pick<Header, 'name'> = {
      name: entry.path,
      type: isDirectory ? 'directory' : 'file',
      mode: entry.mode ?? (isDirectory ? 0o755 : 0o644),
      uid: entry.uid ?? 0,
      gid: entry.gid ?? 0,
      mtime: entry.mtime ?? new Date(),
      ...(data ? { size: data.length } : {}),
    };
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (data) archive.entry(header, data, done);
      else archive.entry(header, done).end(undefined);
    });
  }
  archive.finalize();
  await collected;
  return Buffer.concat(chunks);
}

/** Every entry of an archive, with its bytes. Damaged or truncated archives throw. */
export async function parseTar(archive: Buffer | Readable): Promise<TarEntry[]> {
  const { extract } = await import('tar-stream');
  const reader = extract();
  const source = Buffer.isBuffer(archive) ? Readable.from([archive]) : archive;
  source.on('error', (error) => reader.destroy(error));
  // streamx's Writable takes a Node stream's pipe like any writable.
  source.pipe(reader as unknown as NodeJS.WritableStream);
  const entries: TarEntry[] = [];
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.push(toEntry(entry.header, Buffer.concat(chunks)));
    }
  } catch (error) {
    throw describeTarError(error);
  }
  return entries;
}

function toEntry(header: Header, data: Buffer): TarEntry {
  const type: TarEntryType =
    header.type === 'file' || header.type === 'contiguous-file'
      ? 'file'
      : header.type === 'directory'
        ? 'directory'
        : header.type === 'symlink'
          ? 'symlink'
          : 'other';
  return {
    path: header.name,
    type,
    mode: (header.mode ?? 0) & 0o7777,
    uid: header.uid ?? 0,
    gid: header.gid ?? 0,
    mtime: header.mtime ?? new Date(0),
    data,
    ...(type === 'symlink' ? { linkTarget: header.linkname ?? '' } : {}),
  };
}

/** tar-stream's messages, said in terms of what went wrong with the archive. */
function describeTarError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/Invalid tar header|Invalid header/.test(message)) {
    return new Error(`tar: bad header checksum or format (${message})`);
  }
  if (/Unexpected end of data/.test(message)) return new Error('tar: archive is truncated');
  return error instanceof Error ? error : new Error(message);
}
