/**
 * Names of MCP tools as the model sees them: `mcp_<server>_<tool>`, limited to the
 * characters and the 64-character length OpenAI accepts for function names. A name cut
 * to fit gets a short hash of the full name, so two long names sharing a prefix stay
 * distinct; anything that still collides is reported, never silently overwritten.
 */
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME_LENGTH = 64;

export function sanitizeNamePart(part: string): string {
  const clean = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}

export function mcpToolPrefix(server: string): string {
  return `mcp_${sanitizeNamePart(server)}_`;
}

export function mcpToolName(server: string, tool: string): string {
  const full = `${mcpToolPrefix(server)}${sanitizeNamePart(tool)}`;
  if (full.length <= MAX_TOOL_NAME_LENGTH) return full;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

export interface NamedRemoteTool {
  server: string;
  tool: string;
  name: string;
}

export class McpNameCollisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpNameCollisionError';
  }
}

/**
 * Throws when two MCP tools get the same name, or one takes the name of a tool the agent
 * already has (e.g. `bash`), naming both so the user knows which server to rename.
 */
export function checkNameCollisions(
  tools: NamedRemoteTool[],
  reserved: Iterable<string> = [],
): void {
  const reservedSet = new Set(reserved);
  const seen = new Map<string, NamedRemoteTool>();
  const problems: string[] = [];
  for (const tool of tools) {
    if (reservedSet.has(tool.name)) {
      problems.push(
        `tool "${tool.tool}" of MCP server "${tool.server}" would be named "${tool.name}", which the agent already has`,
      );
      continue;
    }
    const earlier = seen.get(tool.name);
    if (earlier) {
      problems.push(
        `tool "${tool.tool}" of MCP server "${tool.server}" and tool "${earlier.tool}" of MCP server "${earlier.server}" both become "${tool.name}"`,
      );
      continue;
    }
    seen.set(tool.name, tool);
  }
  if (problems.length > 0) {
    throw new McpNameCollisionError(
      `MCP tool names collide: ${problems.join('; ')}. Rename one of the servers in [mcp.servers] of config.toml.`,
    );
  }
}
