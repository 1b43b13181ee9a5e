/**
 * Turns an MCP tool result into our ToolResult: text parts are joined, the first image is
 * forwarded as the result's image (the agent shows it in a user message), embedded
 * resources are given as text or saved (mcp-blobs.ts), resource links say which tool
 * reads them, other content is described rather than dropped silently, and `isError`
 * becomes a tool error.
 */
import type { MessageImage } from '@shared/domain/message';
import { fail, ok, type ToolResult } from '../tool';
import { describeBlob, MODEL_IMAGE_TYPES, type BlobSink } from './mcp-blobs';

/** What the conversion may use: where blobs go, and the tool that reads resources. */
export interface ContentOptions {
  blobs?: BlobSink;
  /** the name of this server's read_resource tool, when the server has resources */
  readTool?: string;
}

/** The parts of an MCP CallToolResult we read (kept loose: servers vary). */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** protocol 2024-10-07 and older */
  toolResult?: unknown;
}

type ContentPart = Record<string, unknown> & { type?: unknown };

export function mcpResultToToolResult(
  result: McpCallResult,
  options: ContentOptions = {},
): ToolResult {
  const texts: string[] = [];
  let image: MessageImage | undefined;
  const parts = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  for (const part of parts) {
    const text = describePart(part, options);
    if (text.image && !image) {
      image = text.image;
      texts.push(`[image ${image.mimeType}]`);
    } else if (text.image) {
      texts.push(
        `[another image (${text.image.mimeType}) was returned but only the first one is shown]`,
      );
    } else if (text.text !== null) {
      texts.push(text.text);
    }
  }
  const structured = result.structuredContent;
  // The model gets structured content as JSON text (the spec's advice to clients), once:
  // a server that also sent it as a text part (as the spec asks servers to) is not repeated.
  if (structured !== undefined && !texts.some((t) => sameJson(t, structured))) {
    const json = JSON.stringify(structured, null, 2);
    texts.push(texts.length === 0 ? json : `Structured content (JSON):\n${json}`);
  }
  if (texts.length === 0 && result.toolResult !== undefined) {
    texts.push(
      typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult),
    );
  }
  const output = texts.join('\n');
  const extra = {
    ...(image ? { image } : {}),
    ...(structured !== undefined && result.isError !== true ? { structured } : {}),
  };
  if (result.isError === true) {
    return fail(output || 'the MCP tool reported an error without a message', extra);
  }
  return ok(output, extra);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function describePart(
  part: ContentPart,
  options: ContentOptions,
): { text: string | null; image?: MessageImage } {
  switch (part.type) {
    case 'text':
      return { text: typeof part['text'] === 'string' ? part['text'] : '' };
    case 'image': {
      const mimeType = typeof part['mimeType'] === 'string' ? part['mimeType'] : '';
      const data = typeof part['data'] === 'string' ? part['data'] : '';
      if (!mimeType.startsWith('image/') || data === '') {
        return {
          text: `[an image part without valid data or MIME type (${mimeType || 'none'}) was skipped]`,
        };
      }
      if (!MODEL_IMAGE_TYPES.has(mimeType.toLowerCase())) {
        return {
          text: `[an image of type ${mimeType} was returned; only PNG, JPEG, GIF and WebP images can be shown to the model]`,
        };
      }
      return { text: null, image: { mimeType: mimeType.toLowerCase(), data } };
    }
    case 'audio':
      return {
        text: `[audio (${String(part['mimeType'] ?? 'unknown type')}) returned; audio is not shown to the model]`,
      };
    case 'resource': {
      const resource = (part['resource'] ?? {}) as Record<string, unknown>;
      const uri = String(resource['uri'] ?? '(no uri)');
      if (typeof resource['text'] === 'string')
        return { text: `Resource ${uri}:\n${resource['text']}` };
      if (typeof resource['blob'] === 'string') {
        const mimeType =
          typeof resource['mimeType'] === 'string' ? resource['mimeType'] : undefined;
        const blob = describeBlob(uri, mimeType, resource['blob'], options.blobs);
        return blob.image ? { text: null, image: blob.image } : { text: blob.text };
      }
      return { text: `[resource ${uri} without content]` };
    }
    case 'resource_link': {
      const uri = String(part['uri'] ?? '');
      const name = typeof part['name'] === 'string' ? part['name'] : '';
      const type = typeof part['mimeType'] === 'string' ? ` (${part['mimeType']})` : '';
      const how = options.readTool ? `; read it with ${options.readTool}` : '';
      return { text: `Resource link: ${name ? `${name} ` : ''}${uri}${type}${how}` };
    }
    default:
      return { text: `[content of type ${String(part.type)} not shown]` };
  }
}
