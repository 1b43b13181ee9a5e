/**
 * Tool patterns of agent definitions. A pattern without a slash is a built-in tool
 * (`bash`, `str_*`) or, when no built-in tool matches and it has no wildcard, every tool
 * of the configured MCP server of that name. `server/tool` picks MCP tools by the
 * server's own tool names; `*` and `?` are wildcards in either part (`files/read_*`,
 * `*\/*` for every tool of every server).
 */
import type { AgentName } from '@shared/domain/agent';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '@shared/domain/agent-definition';

export type ToolPattern =
  | { kind: 'builtin'; pattern: string; names: BuiltinToolName[] }
  | { kind: 'mcp'; pattern: string; server: string; tool: string };

const PATTERN_SYNTAX = /^[A-Za-z0-9_.*?-]+(\/[A-Za-z0-9_.*?:-]+)?$/;

export function hasWildcard(text: string): boolean {
  return /[*?]/.test(text);
}

/** A glob (`*`, `?`) as an anchored regular expression. */
export function globRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

export function globMatches(glob: string, text: string): boolean {
  return hasWildcard(glob) ? globRegex(glob).test(text) : glob === text;
}

/**
 * What a pattern means, given the configured MCP servers; an error message (with the fix)
 * for a pattern that can match nothing.
 */
export function parseToolPattern(
  pattern: string,
  mcpServers: readonly string[],
): ToolPattern | { error: string } {
  if (!PATTERN_SYNTAX.test(pattern)) {
    return {
      error: `"${pattern}" is not a tool pattern: write a built-in tool name, an MCP server name, or "server/tool" (letters, digits, _ . - and the wildcards * ?)`,
    };
  }
  const slash = pattern.indexOf('/');
  if (slash >= 0) {
    const server = pattern.slice(0, slash);
    const tool = pattern.slice(slash + 1);
    if (!hasWildcard(server) && !mcpServers.includes(server)) {
      return {
        error: `"${pattern}": there is no MCP server "${server}" (configured: ${mcpServers.join(', ') || 'none'}). Add [mcp.servers.${server}] to config.toml or fix the name.`,
      };
    }
    return { kind: 'mcp', pattern, server, tool };
  }
  // a plain name is looked up; a wildcard compiled once (200 files load in < 200 ms)
  const regex = hasWildcard(pattern) ? globRegex(pattern) : undefined;
  const names = BUILTIN_TOOL_NAMES.filter((n) => (regex ? regex.test(n) : n === pattern));
  if (names.length > 0) return { kind: 'builtin', pattern, names };
  if (!hasWildcard(pattern) && mcpServers.includes(pattern)) {
    return { kind: 'mcp', pattern, server: pattern, tool: '*' };
  }
  return {
    error: `unknown tool "${pattern}": the built-in tools are ${BUILTIN_TOOL_NAMES.join(', ')}; an MCP server's tools are "server" or "server/tool" (configured servers: ${mcpServers.join(', ') || 'none'})`,
  };
}

/** The built-in tools the patterns pick, in the order of the first pattern naming each. */
export function builtinToolsOf(patterns: readonly ToolPattern[]): BuiltinToolName[] {
  const picked: BuiltinToolName[] = [];
  for (const p of patterns)
    if (p.kind === 'builtin') for (const n of p.names) if (!picked.includes(n)) picked.push(n);
  return picked;
}

/** The configured servers some MCP pattern can pick tools of, in config order. */
export function mcpServersOf(
  patterns: readonly ToolPattern[],
  mcpServers: readonly string[],
): string[] {
  const mcp = patterns.filter((p) => p.kind === 'mcp');
  return mcpServers.filter((s) => mcp.some((p) => globMatches(p.server, s)));
}

/** Whether the MCP patterns pick `tool` (the server's own name for it) of `server`. */
export function picksMcpTool(patterns: readonly ToolPattern[], server: string, tool: string) {
  return patterns.some(
    (p) => p.kind === 'mcp' && globMatches(p.server, server) && globMatches(p.tool, tool),
  );
}

/**
 * The built-in agent whose needs a user's agent shares (the pre-flight checks what that
 * agent needs: Docker for sandbox tools, Chromium for the browser). Its `[agent.NAME]`
 * settings never apply to the user's agent.
 */
export function carrierAgent(patterns: readonly ToolPattern[]): AgentName {
  const names = builtinToolsOf(patterns);
  const sandbox = names.some(
    (n) => n === 'python_execute' || n === 'bash' || n === 'str_replace_editor',
  );
  const others =
    names.some((n) => n === 'browser' || n === 'ask_human') ||
    patterns.some((p) => p.kind === 'mcp');
  if (sandbox) return others ? 'manus' : 'swe';
  if (names.includes('browser')) return 'browser';
  return 'toolcall';
}
