/**
 * Binary content from MCP servers (resource blobs, embedded blob resources): images are
 * shown to the model, text in a binary wrapper (JSON, XML, text/*) is decoded, and
 * anything else is saved into the session's workspace, where the sandbox sees it under
 * its work_dir, and the model is told the path. Before, a blob was "not shown" and so
 * out of the agent's reach (issue 16 item 4).
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageImage } from '@shared/domain/message';
import {
  closeQuietly,
  createFileAt,
  ensureDirAt,
  isDirFdSupported,
  openRoot,
} from '../../util/dir-fd';

/** Image types chat models accept in a user message. */
export const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const MAX_BLOB_BYTES = 50 * 1024 * 1024;
const TEXT_TYPES =
  /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-ndjson)|[^;]*\+(json|xml))/i;

export interface BlobSink {
  /** stores the bytes and says where they are, for the model */
  save(uri: string, mimeType: string, bytes: Buffer): string;
}

export interface BlobOutcome {
  text: string;
  image?: MessageImage;
}

/** What the model gets for one blob: the image, its text, or where it was saved. */
export function describeBlob(
  uri: string,
  mimeType: string | undefined,
  base64: string,
  sink: BlobSink | undefined,
): BlobOutcome {
  const type = (mimeType ?? 'application/octet-stream').toLowerCase();
  if (MODEL_IMAGE_TYPES.has(type)) {
    return { text: `[image ${type} from ${uri}]`, image: { mimeType: type, data: base64 } };
  }
  const bytes = Buffer.from(base64, 'base64');
  if (TEXT_TYPES.test(type)) {
    return { text: `Resource ${uri} (${type}):\n${bytes.toString('utf8')}` };
  }
  if (bytes.length > MAX_BLOB_BYTES) {
    return {
      text: `[binary resource ${uri} (${type}, ${bytes.length} bytes) is larger than ${MAX_BLOB_BYTES} bytes and was not saved]`,
    };
  }
  if (!sink) return { text: `[binary resource ${uri} (${type}, ${bytes.length} bytes)]` };
  return {
    text: `Binary resource ${uri} (${type}, ${bytes.length} bytes): ${sink.save(uri, type, bytes)}`,
  };
}

const EXTENSIONS: Record<string, string> = {
  'application/gzip': '.gz',
  'application/zip': '.zip',
  'application/pdf': '.pdf',
  'application/octet-stream': '.bin',
  'image/svg+xml': '.svg',
  'image/bmp': '.bmp',
  'image/tiff': '.tiff',
  'audio/wav': '.wav',
  'audio/mpeg': '.mp3',
};

/**
 * Saves blobs under `<workspace>/mcp-resources/<server>/`; the sandbox mounts the
 * workspace at `workDir`, so the model is given both the path there and the relative one.
 *
 * The workspace is the agent's: it can make `mcp-resources` (or the server's folder, or
 * the file's name) a link to a host folder such as ~/.ssh, and a write by path would then
 * land there (issue 24, found in its security review). Each name is made and opened
 * inside the folder already held open, never followed (util/dir-fd.ts); a link in the
 * way means the blob is not saved, and the model is told why. Where descriptor lookups
 * are not available (not Linux), nothing is saved.
 */
export function workspaceBlobSink(workspaceDir: string, workDir: string, server: string): BlobSink {
  const serverFolder = safeName(server);
  const folder = join('mcp-resources', serverFolder);
  return {
    save(uri, mimeType, bytes) {
      let name = safeName(uri.split(/[/:]/).filter(Boolean).at(-1) ?? 'resource');
      const extension = EXTENSIONS[mimeType];
      if (extension && !name.toLowerCase().endsWith(extension)) name += extension;
      const relative = join(folder, name);
      const problem = writeInside(workspaceDir, ['mcp-resources', serverFolder], name, bytes);
      if (problem) return `not saved: ${problem}`;
      return `saved in the workspace as ${relative} (${join(workDir, relative)} in the sandbox)`;
    },
  };
}

/** Writes `root/folders.../name` without following any link; returns why it could not. */
function writeInside(
  root: string,
  folders: string[],
  name: string,
  bytes: Buffer,
): string | undefined {
  if (!isDirFdSupported(root)) {
    return 'saving binary resources into the workspace needs Linux (/proc/self/fd) on this machine';
  }
  const open: number[] = [];
  try {
    open.push(openRoot(root));
    for (const [depth, folder] of folders.entries()) {
      const fd = ensureDirAt(open.at(-1)!, folder);
      if (fd === undefined) {
        return `${folders.slice(0, depth + 1).join('/')} in the workspace is not a plain folder (a symbolic link?)`;
      }
      open.push(fd);
    }
    const file = createFileAt(open.at(-1)!, name);
    if (file === undefined) {
      return `${[...folders, name].join('/')} in the workspace is not a plain file (a symbolic link?)`;
    }
    try {
      for (let offset = 0; offset < bytes.length;) {
        offset += writeSync(file, bytes, offset, bytes.length - offset);
      }
    } finally {
      closeQuietly(file);
    }
    return undefined;
  } catch (error) {
    return `the workspace could not be written (${(error as Error).message})`;
  } finally {
    for (const fd of open) closeQuietly(fd);
  }
}

function safeName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return clean.slice(0, 100) || 'resource';
}
