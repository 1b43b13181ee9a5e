/**
 * A run's images beside its history (issue 17): stored once per content, capped, only
 * raster types whose bytes are what they claim, refs that cannot leave the run's folder,
 * written before the event that names them, and removed with the run.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventImage, RunEvent } from '@shared/events';
import { isImageRef } from '@shared/image-ref';
import { z } from 'zod';
import { ScriptedLlm } from '../llm/scripted-llm';
import { ToolCallAgent } from '../loop/toolcall-agent';
import { createTerminateTool } from '../tools/terminate';
import { ToolRegistry } from '../tools/tool-registry';
import type { RunFactory } from './run-types';
import { RunImages, runImagesDir } from './run-images';
import { RunManager } from './run-manager';
import { RunStore } from './run-store';
import { sniffImage } from './image-sniff';

/** A 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const png = (data = PNG) => ({ mimeType: 'image/png', data: data.toString('base64') });
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function store(maxBytes?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'wb-images-'));
  return { dir, images: new RunImages(dir, maxBytes) };
}

describe('RunImages', () => {
  it('stores an image once under the sha256 of its bytes, with its size and dimensions', () => {
    const { dir, images } = store();
    const first = images.keep('run-1', png());
    expect(first).toEqual({
      mimeType: 'image/png',
      bytes: PNG.length,
      width: 2,
      height: 2,
      ref: `${sha(PNG)}.png`,
    });
    expect(images.keep('run-1', png())).toEqual(first);
    expect(readdirSync(runImagesDir(dir, 'run-1'))).toEqual([first.ref]);
    expect(images.read('run-1', first.ref!)).toEqual({ mimeType: 'image/png', bytes: PNG });
    // another run keeps its own copy (deleting one run leaves the other's readable)
    expect(images.keep('run-2', png()).ref).toBe(first.ref);
    images.remove('run-1');
    expect(existsSync(runImagesDir(dir, 'run-1'))).toBe(false);
    expect(images.read('run-2', first.ref!)?.bytes).toEqual(PNG);
  });

  it('describes but does not keep an image over the cap', () => {
    const { dir, images } = store(PNG.length - 1);
    const kept = images.keep('run-1', png());
    expect(kept).toMatchObject({ mimeType: 'image/png', bytes: PNG.length });
    expect(kept.ref).toBeUndefined();
    expect(kept.notKept).toMatch(/larger than/);
    expect(existsSync(runImagesDir(dir, 'run-1'))).toBe(false);
  });

  it('keeps PNG, JPEG, GIF and WebP only, and only when the bytes are that type', () => {
    const { images } = store();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect(images.keep('r', { mimeType: 'image/svg+xml', data: svg.toString('base64') })).toEqual({
      mimeType: 'image/svg+xml',
      bytes: svg.length,
      notKept: 'image/svg+xml images are not kept (only PNG, JPEG, GIF and WebP)',
    });
    // an SVG (or HTML) declared as a PNG is not kept under .png
    const disguised = images.keep('r', { mimeType: 'image/png', data: svg.toString('base64') });
    expect(disguised.ref).toBeUndefined();
    expect(disguised.notKept).toBe('the bytes are not of type image/png');
    // the bytes decide the extension: a JPEG declared as PNG is stored as .jpg
    const jpeg = jpegBytes(40, 30);
    const asJpeg = images.keep('r', { mimeType: 'image/png', data: jpeg.toString('base64') });
    expect(asJpeg).toMatchObject({ mimeType: 'image/jpeg', width: 40, height: 30 });
    expect(asJpeg.ref).toBe(`${sha(jpeg)}.jpg`);
    const gif = Buffer.from('474946383961050007000000', 'hex');
    expect(images.keep('r', { mimeType: 'image/gif', data: gif.toString('base64') })).toMatchObject(
      { mimeType: 'image/gif', width: 5, height: 7, ref: `${sha(gif)}.gif` },
    );
    const webp = webpBytes(300, 200);
    expect(
      images.keep('r', { mimeType: 'image/webp', data: webp.toString('base64') }),
    ).toMatchObject({ mimeType: 'image/webp', width: 300, height: 200, ref: `${sha(webp)}.webp` });
  });

  it('takes only refs of the content-address pattern: no traversal, no absolute path, no SVG', () => {
    const { dir, images } = store();
    const { ref } = images.keep('run-1', png());
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    const hex = 'a'.repeat(64);
    for (const bad of [
      '../secret.txt',
      `../${hex}.png`,
      `/etc/${hex}.png`,
      `${hex}.svg`,
      `${hex}.PNG`,
      `${hex}.png/..`,
      `${hex.slice(1)}.png`,
      '',
    ]) {
      expect(isImageRef(bad), bad).toBe(false);
      expect(images.path('run-1', bad), bad).toBeUndefined();
      expect(images.read('run-1', bad), bad).toBeUndefined();
    }
    expect(images.path('..', ref!)).toBeUndefined();
    expect(images.path('a/b', ref!)).toBeUndefined();
    expect(images.read('run-1', `${hex}.png`)).toBeUndefined(); // valid, but not stored
  });

  it('names a file only for an image it holds (item 8: `runs show` prints no missing path)', () => {
    const { dir, images } = store();
    const { ref } = images.keep('run-1', png());
    expect(images.path('run-1', ref!)).toBe(join(runImagesDir(dir, 'run-1'), ref!));
    const hex = 'b'.repeat(64);
    // valid refs, but nothing kept under them: never stored, or a folder in its place
    expect(images.path('run-1', `${hex}.png`)).toBeUndefined();
    expect(images.path('run-2', ref!)).toBeUndefined();
    mkdirSync(join(runImagesDir(dir, 'run-1'), `${hex}.gif`));
    expect(images.path('run-1', `${hex}.gif`)).toBeUndefined();
    expect(images.read('run-1', `${hex}.gif`)).toBeUndefined();
    // a NUL byte never reaches the file system
    expect(images.path('run-1', `${ref!}\u0000`)).toBeUndefined();
    expect(images.path('run-1', `${ref!.slice(0, -4)}\u0000.png`)).toBeUndefined();
  });

  it('sniffs nothing from bytes that are no image', () => {
    expect(sniffImage(Buffer.from('GIF8'))).toBeUndefined();
    expect(sniffImage(Buffer.from('hello world, not an image'))).toBeUndefined();
  });
});

describe('RunStore and RunManager with images', () => {
  it('writes the file before the event naming it, and deleting the run removes its images', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-runs-'));
    const seenOnAppend: boolean[] = [];
    class CheckingStore extends RunStore {
      override append(event: RunEvent, line: string): void {
        const image: EventImage | undefined =
          event.type === 'memory.appended' ? event.message.image : undefined;
        if (image?.ref) seenOnAppend.push(existsSync(this.imagePath(event.runId, image.ref)!));
        super.append(event, line);
      }
    }
    const history = new CheckingStore(dir, { onWarning: () => undefined });
    const manager = new RunManager(pictureRuns, { history });
    const { runId, done } = manager.start({ task: 'two pictures', agent: 'toolcall' });
    await done;
    // two calls returned the same picture: two events name it, one file holds it
    expect(seenOnAppend).toEqual([true, true]);
    const events = history.read(runId)!.events;
    const images = events.flatMap((e) =>
      e.type === 'memory.appended' && e.message.image ? [e.message] : [],
    );
    expect(images).toHaveLength(2);
    expect(images[0]).toMatchObject({
      role: 'user',
      imageMimeType: 'image/png',
      image: { mimeType: 'image/png', bytes: PNG.length, ref: `${sha(PNG)}.png` },
    });
    expect(readdirSync(runImagesDir(dir, runId))).toEqual([`${sha(PNG)}.png`]);
    expect(history.remove(runId)).toBe(true);
    expect(existsSync(runImagesDir(dir, runId))).toBe(false);
  });
});

/** A baseline JPEG's start: SOI, an APP0 segment, then SOF0 with the size. */
function jpegBytes(width: number, height: number): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from('ffd8', 'hex'), app0, sof, Buffer.from('ffd9', 'hex')]);
}

/** A lossless WebP header (VP8L): 14-bit width-1 and height-1 after the signature byte. */
function webpBytes(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'latin1');
  b.write('VP8L', 12, 'latin1');
  b.writeUInt32LE(10, 16);
  b[20] = 0x2f;
  b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return b;
}

/** A real tool-call agent whose `shot` tool returns the PNG: called twice, then terminate. */
const pictureRuns: RunFactory = async (input, context) => {
  const shot = {
    name: 'shot',
    description: 'Take a picture.',
    schema: z.object({}),
    execute: async () => ({ output: 'took it', image: png() }),
  };
  const llm = new ScriptedLlm((_r, i) =>
    i < 2
      ? { toolCalls: [{ name: 'shot', args: {} }] }
      : { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
  );
  const agent = new ToolCallAgent(
    { name: input.agent, maxSteps: 5 },
    { llm, tools: new ToolRegistry([shot, createTerminateTool()]) },
    {
      emit: context.emit,
      runId: context.runId,
      ...(context.keepImage ? { keepImage: context.keepImage } : {}),
    },
  );
  return {
    agentName: input.agent,
    model: 'scripted',
    maxSteps: 5,
    execute: (task, signal) => agent.run(task, { signal }),
  };
};
