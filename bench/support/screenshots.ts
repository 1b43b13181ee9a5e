/**
 * The UI benchmark's screenshots: a PNG encoder just big enough (8-bit RGB, no
 * filtering) for real images of a browser screenshot's size, kept beside a run's history
 * the way the runtime keeps them, for the timeline to decode as thumbnails.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { EventImage } from '@shared/events';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A `width`×`height` page-like picture: bands of grey text lines on a tinted background. */
export function screenshotPng(width: number, height: number, tint: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    const isText = y % 24 > 14 && y % 24 < 20;
    for (let x = 0; x < width; x++) {
      const ink = isText && (x * 7 + y * 3 + tint) % 11 < 7 && x % 300 < 260;
      const at = row + 1 + x * 3;
      raw[at] = ink ? 60 : 240 - ((tint * 40) % 80);
      raw[at + 1] = ink ? 60 : 244;
      raw[at + 2] = ink ? 70 : 250 - ((tint * 25) % 60);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Every 10th step a tool returns a 1280×720 screenshot (eight different ones, kept beside
 * the history as the runtime keeps them), so rows with a thumbnail scroll by too.
 * `BENCH_UI_IMAGES=0` leaves them out (the same run without images, for comparison).
 */
export const IMAGE_EVERY = process.env['BENCH_UI_IMAGES'] === '0' ? 0 : 10;

export function writeImages(dir: string, runId: string): EventImage[] {
  const folder = join(dir, `${runId}.images`);
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: 8 }, (_, tint) => {
    const png = screenshotPng(1280, 720, tint);
    const ref = `${createHash('sha256').update(png).digest('hex')}.png`;
    writeFileSync(join(folder, ref), png);
    return { mimeType: 'image/png', bytes: png.length, width: 1280, height: 720, ref };
  });
}
