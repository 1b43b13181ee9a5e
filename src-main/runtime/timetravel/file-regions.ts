/**
 * Reading a workspace file for the host snapshot through its descriptor only (never by
 * path again: the name may be a link by now). A file with fewer blocks on disk than its
 * size has holes (`truncate -s 100M`): its zero-filled 4 KiB blocks are found by reading
 * (Node has no SEEK_HOLE; a hole reads as zeros at memory speed), so the archive stores
 * what the file costs on disk, not its apparent size. A file that shrinks meanwhile reads
 * as zeros past its new end and one that grows is cut at the size taken: either way it
 * changed after the mark, so the next checkpoint takes it again.
 */
import { readSync } from 'node:fs';
import type { Region } from './tar-writer';

const CHUNK = 1 << 20;
const PAGE = 4096;
const ZEROS = Buffer.alloc(CHUNK);

/** Gives way to the event loop now and then (a 500 MB first snapshot must not freeze the app). */
export type Pace = () => Promise<void>;

export function pacer(sliceMs = 8): Pace {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/** Fills `buffer` from `fd` at `position`; what the file no longer has reads as zeros. */
export function readAt(fd: number, buffer: Buffer, length: number, position: number): Buffer {
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buffer, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  if (got < length) buffer.fill(0, got, length);
  return buffer.subarray(0, length);
}

/** The data regions of the first `size` bytes of `fd`: 4 KiB blocks of zeros are holes. */
export async function dataRegions(
  fd: number,
  size: number,
  buffer: Buffer,
  pace: Pace,
): Promise<Region[]> {
  const regions: Region[] = [];
  let open: Region | undefined;
  for (let at = 0; at < size; at += CHUNK) {
    await pace();
    const chunk = readAt(fd, buffer, Math.min(CHUNK, size - at), at);
    if (chunk.equals(ZEROS.subarray(0, chunk.length))) {
      open = undefined;
      continue;
    }
    for (let page = 0; page < chunk.length; page += PAGE) {
      const end = Math.min(page + PAGE, chunk.length);
      const isHole = chunk.subarray(page, end).equals(ZEROS.subarray(0, end - page));
      if (isHole) open = undefined;
      else if (open) open.length += end - page;
      else {
        open = { offset: at + page, length: end - page };
        regions.push(open);
      }
    }
  }
  return regions;
}

/** Copies `length` bytes of `fd` at `offset` through `sink`, in chunks. */
export async function copyRange(
  fd: number,
  offset: number,
  length: number,
  buffer: Buffer,
  sink: (chunk: Buffer) => void,
  pace: Pace,
): Promise<void> {
  for (let done = 0; done < length; done += CHUNK) {
    await pace();
    sink(readAt(fd, buffer, Math.min(CHUNK, length - done), offset + done));
  }
}

export const READ_BUFFER_BYTES = CHUNK;
