/**
 * A run's images beside its history (issue 17): `<runs>/<runId>.images/<ref>`, where the
 * ref is the SHA-256 of the bytes and an extension (`@shared/image-ref`), so a screenshot
 * taken twice is stored once and a ref can never name anything but an image of that run.
 *
 * `keep` writes synchronously, before the event that names the file is appended: the
 * history then never names a file a crash lost (a crash loses at most what the event log
 * itself would). A kept image is at most MAX_IMAGE_BYTES, a few milliseconds to hash and
 * write, next to the model call that follows it. What is not kept (over the cap, a type
 * other than PNG, JPEG, GIF or WebP, bytes that are not the image they claim, a refusing
 * disk) is still described in the event, with the reason.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { MessageImage } from '@shared/domain/message';
import type { EventImage } from '@shared/events';
import { IMAGE_EXTENSIONS, imageRefType, isImageRef, isKeptImageType } from '@shared/image-ref';
import { isRunId } from '@shared/domain/ids';
import { sniffImage } from './image-sniff';

/** Larger images are described, not kept (a full-page screenshot is rarely over 2 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGES_SUFFIX = '.images';

export function runImagesDir(dir: string, runId: string): string {
  return join(dir, `${runId}${IMAGES_SUFFIX}`);
}

export interface StoredImage {
  mimeType: string;
  bytes: Buffer;
}

export class RunImages {
  constructor(
    private readonly dir: string,
    private readonly maxBytes = MAX_IMAGE_BYTES,
  ) {}

  /** Stores the image's bytes (once per content) and describes it for the event. */
  keep(runId: string, image: MessageImage): EventImage {
    const declared = image.mimeType.toLowerCase().split(';', 1)[0]!.trim();
    // base64 length gives the size without decoding an oversized image first
    const bytes = Math.floor((image.data.replace(/=+$/, '').length * 3) / 4);
    const base = { mimeType: image.mimeType, bytes };
    if (!isKeptImageType(declared)) {
      return {
        ...base,
        notKept: `${image.mimeType} images are not kept (only PNG, JPEG, GIF and WebP)`,
      };
    }
    if (bytes > this.maxBytes) {
      return {
        ...base,
        notKept: `larger than the ${this.maxBytes / 1024 / 1024} MB an image may take`,
      };
    }
    const data = Buffer.from(image.data, 'base64');
    const sniffed = sniffImage(data);
    if (!sniffed)
      return { ...base, bytes: data.length, notKept: `the bytes are not of type ${declared}` };
    const ref = `${createHash('sha256').update(data).digest('hex')}.${IMAGE_EXTENSIONS[sniffed.mimeType]}`;
    const described: EventImage = {
      mimeType: sniffed.mimeType,
      bytes: data.length,
      ...(sniffed.width ? { width: sniffed.width } : {}),
      ...(sniffed.height ? { height: sniffed.height } : {}),
    };
    try {
      this.write(runId, ref, data);
    } catch (error) {
      return { ...described, notKept: `the disk refused it (${(error as Error).message})` };
    }
    return { ...described, ref };
  }

  /**
   * Stores an image that arrives under its ref (an imported run): kept only when the ref is
   * of the exact pattern, the bytes hash to it, they are the image type its extension names
   * and they are within the cap. Returns why not, or undefined when stored.
   */
  restore(runId: string, ref: string, data: Buffer): string | undefined {
    if (!isImageRef(ref)) return 'its name is not an image ref';
    if (data.length > this.maxBytes)
      return `larger than the ${this.maxBytes / 1024 / 1024} MB an image may take`;
    if (createHash('sha256').update(data).digest('hex') !== ref.slice(0, 64))
      return 'its bytes do not match its name (changed after export?)';
    if (sniffImage(data)?.mimeType !== imageRefType(ref))
      return `its bytes are not of type ${imageRefType(ref)}`;
    try {
      this.write(runId, ref, data);
    } catch (error) {
      return `the disk refused it (${(error as Error).message})`;
    }
    return undefined;
  }

  /**
   * The file a stored image is in, or undefined when there is none: a bad run id or ref
   * (never a path outside the run's folder), or a ref the run never kept (an imported run
   * can name images its file did not bring). Readers print or serve this path, so it names
   * only what is there. A symbolic link is not an image this store wrote.
   */
  path(runId: string, ref: string): string | undefined {
    const file = this.file(runId, ref);
    if (file === undefined) return undefined;
    try {
      return lstatSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }

  read(runId: string, ref: string): StoredImage | undefined {
    const file = this.path(runId, ref);
    const mimeType = imageRefType(ref);
    if (!file || !mimeType) return undefined;
    try {
      return { mimeType, bytes: readFileSync(file) };
    } catch {
      return undefined;
    }
  }

  /** Removes every image of the run (deleting a run). */
  remove(runId: string): void {
    if (!isRunId(runId)) return;
    rmSync(runImagesDir(this.dir, runId), { recursive: true, force: true });
  }

  /** Where an image of this run and ref goes; undefined for a bad run id or ref. */
  private file(runId: string, ref: string): string | undefined {
    if (!isRunId(runId) || !isImageRef(ref)) return undefined;
    return join(runImagesDir(this.dir, runId), ref);
  }

  private write(runId: string, ref: string, data: Buffer): void {
    const file = this.file(runId, ref);
    if (!file) throw new Error(`Invalid run id: ${runId}`);
    if (existsSync(file)) return; // same bytes, same name: stored once
    mkdirSync(runImagesDir(this.dir, runId), { recursive: true, mode: 0o700 });
    // Written under a temporary name and renamed: a crash leaves no half image under a ref.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
  }
}
