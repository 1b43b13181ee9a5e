/**
 * An MCP server's resources as two tools of the agent: `mcp_<server>_list_resources`
 * (resources and resource templates, a page at a time) and `mcp_<server>_read_resource`
 * (one URI: text as text, images shown, other blobs saved to the workspace). Only servers
 * that declare the resources capability get them. Before, resources and the resource
 * links tools return were out of the agent's reach (issue 16 item 4).
 */
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { MessageImage } from '@shared/domain/message';
import { isCancellation } from '../../util/abort';
import { fail, ok, type Tool, type ToolResult } from '../tool';
import { describeBlob, type BlobSink } from './mcp-blobs';
import { McpToolError, type McpConnection } from './mcp-connection';
import { mcpToolName } from './mcp-names';

/** What the two tools are called for a server (also used to keep server tools apart). */
export function resourceToolNames(server: string): { list: string; read: string } {
  return {
    list: mcpToolName(server, 'list_resources'),
    read: mcpToolName(server, 'read_resource'),
  };
}

const listSchema = z
  .object({
    cursor: z
      .string()
      .optional()
      .describe('the nextCursor of the previous page, to list the following resources'),
  })
  .strict();

const readSchema = z
  .object({ uri: z.string().min(1).describe('the URI of the resource, as listed or linked') })
  .strict();

export function createResourceTools(
  connection: McpConnection,
  blobs: BlobSink,
): [Tool<z.infer<typeof listSchema>>, Tool<z.infer<typeof readSchema>>] {
  const server = connection.serverName;
  const names = resourceToolNames(server);
  const list: Tool<z.infer<typeof listSchema>> = {
    name: names.list,
    description: `Lists the resources (files, records, documents) of MCP server "${server}": their URIs, names and types, and the URI templates it accepts. Read one with ${names.read}.`,
    schema: listSchema,
    execute: (args, context) =>
      guarded(context.signal, () =>
        connection.withClient('listing its resources', context.signal, async (client, options) => {
          const page = await client.request(
            { method: 'resources/list', params: args.cursor ? { cursor: args.cursor } : {} },
            ListResourcesResultSchema,
            options,
          );
          const templates = args.cursor
            ? { resourceTemplates: [] }
            : await client
                .request(
                  { method: 'resources/templates/list', params: {} },
                  ListResourceTemplatesResultSchema,
                  options,
                )
                .catch(() => ({ resourceTemplates: [] }));
          const lines = page.resources.map(
            (r) =>
              `- ${r.uri}${r.name ? ` (${r.name})` : ''}${r.mimeType ? ` [${r.mimeType}]` : ''}${r.description ? `: ${r.description}` : ''}`,
          );
          const out = [
            `Resources of MCP server "${server}":`,
            ...(lines.length ? lines : ['(none)']),
          ];
          if (page.nextCursor) {
            out.push(`More resources: call ${names.list} with cursor "${page.nextCursor}".`);
          }
          if (templates.resourceTemplates.length > 0) {
            out.push('URI templates (fill in the {placeholders} and read the URI):');
            for (const t of templates.resourceTemplates) {
              out.push(
                `- ${t.uriTemplate}${t.name ? ` (${t.name})` : ''}${t.description ? `: ${t.description}` : ''}`,
              );
            }
          }
          return ok(out.join('\n'));
        }),
      ),
  };
  const read: Tool<z.infer<typeof readSchema>> = {
    name: names.read,
    description: `Reads one resource of MCP server "${server}" by its URI (from ${names.list}, a URI template, or a resource link a tool returned). Text comes back as text, images are shown, other binary content is saved into the workspace.`,
    schema: readSchema,
    execute: (args, context) =>
      guarded(context.signal, () =>
        connection.withClient(`reading ${args.uri}`, context.signal, async (client, options) => {
          const result = await client.request(
            { method: 'resources/read', params: { uri: args.uri } },
            ReadResourceResultSchema,
            options,
          );
          const texts: string[] = [];
          let image: MessageImage | undefined;
          for (const content of result.contents) {
            if ('text' in content && typeof content.text === 'string') {
              texts.push(
                `Resource ${content.uri}${content.mimeType ? ` (${content.mimeType})` : ''}:\n${content.text}`,
              );
            } else if ('blob' in content && typeof content.blob === 'string') {
              const blob = describeBlob(content.uri, content.mimeType, content.blob, blobs);
              if (blob.image && !image) image = blob.image;
              texts.push(blob.text);
            }
          }
          if (texts.length === 0) texts.push(`The resource ${args.uri} has no content.`);
          return ok(texts.join('\n\n'), image ? { image } : {});
        }),
      ),
  };
  return [list, read];
}

/** Connection failures become tool errors the model can read; a stop stays a stop. */
async function guarded(signal: AbortSignal, work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await work();
  } catch (error) {
    if (isCancellation(error, signal)) throw error;
    if (error instanceof McpToolError) return fail(error.message);
    throw error;
  }
}
