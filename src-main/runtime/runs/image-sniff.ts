/**
 * What an image's bytes really are, and how large it is, from its header. The history
 * keeps an image under the type its bytes show, not the type a tool declared: a file
 * named `.png` then always holds a PNG, so serving it as `image/png` with `nosniff` is
 * true (an SVG or HTML document declared as a PNG is not kept at all).
 */
import type { KeptImageType } from '@shared/image-ref';

export interface SniffedImage {
  mimeType: KeptImageType;
  width?: number;
  height?: number;
}

export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) {
    return { mimeType: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (
    b.length >= 10 &&
    (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')
  ) {
    return { mimeType: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    return { mimeType: 'image/jpeg', ...jpegSize(b) };
  }
  if (
    b.length >= 16 &&
    b.toString('latin1', 0, 4) === 'RIFF' &&
    b.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return { mimeType: 'image/webp', ...webpSize(b) };
  }
  return undefined;
}

/** The frame header (SOFn) carries the size; segments before it are skipped by length. */
function jpegSize(b: Buffer): { width?: number; height?: number } {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return {};
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return {};
}

function webpSize(b: Buffer): { width?: number; height?: number } {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && b.length >= 30) {
    return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  if (chunk === 'VP8 ' && b.length >= 30) {
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return {};
}
