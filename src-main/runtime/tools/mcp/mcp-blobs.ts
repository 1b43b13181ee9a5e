/**
 * Binary content from MCP servers (resource blobs, embedded blob resources): images are
 * shown to the model, text in a binary wrapper (JSON, XML, text/*) is decoded, and
 * anything else is saved into the session's workspace, where the sandbox sees it under
 * its work_dir, and the model is told the path. Before, a blob was "not shown" and so
 * out of the agent's reach (issue 16 item 4).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageImage } from '@shared/domain/message';

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
 */
export function workspaceBlobSink(workspaceDir: string, workDir: string, server: string): BlobSink {
  const folder = join('mcp-resources', safeName(server));
  return {
    save(uri, mimeType, bytes) {
      let name = safeName(uri.split(/[/:]/).filter(Boolean).at(-1) ?? 'resource');
      const extension = EXTENSIONS[mimeType];
      if (extension && !name.toLowerCase().endsWith(extension)) name += extension;
      const relative = join(folder, name);
      mkdirSync(join(workspaceDir, folder), { recursive: true });
      writeFileSync(join(workspaceDir, relative), bytes);
      return `saved in the workspace as ${relative} (${join(workDir, relative)} in the sandbox)`;
    },
  };
}

function safeName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return clean.slice(0, 100) || 'resource';
}
