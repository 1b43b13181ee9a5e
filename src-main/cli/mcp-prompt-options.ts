/**
 * `workbench run --agent mcp --mcp-prompt SERVER/NAME --arg NAME=VALUE ...`: the run's
 * task comes from one of the MCP server's prompts (docs/mcp.md, "Prompts"). The prompt is
 * fetched when the run starts; a missing or unknown argument fails the run with the
 * prompt's arguments named.
 */
import type { McpPromptChoice } from '@shared/domain/mcp';
import { UsageError } from './usage-error';

export function mcpPromptChoice(
  agent: string,
  spec: string | undefined,
  args: string[] | undefined,
): McpPromptChoice | undefined {
  if (spec === undefined) {
    if (args && args.length > 0) throw new UsageError('--arg gives an argument of --mcp-prompt');
    return undefined;
  }
  if (agent !== 'mcp') throw new UsageError('--mcp-prompt is for --agent mcp');
  const slash = spec.indexOf('/');
  const server = spec.slice(0, slash).trim();
  const name = spec.slice(slash + 1).trim();
  if (slash < 0 || !server || !name) {
    throw new UsageError(`--mcp-prompt takes SERVER/NAME (e.g. git/git_wrapup), got "${spec}"`);
  }
  const values: Record<string, string> = {};
  for (const arg of args ?? []) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UsageError(`--arg takes NAME=VALUE, got "${arg}"`);
    values[arg.slice(0, eq).trim()] = arg.slice(eq + 1);
  }
  return { server, name, arguments: values };
}
