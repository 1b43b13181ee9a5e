/**
 * Which agents an MCP server's tools reach, said where the server is added (issue 25
 * item 11: adding a server silently gave Manus 14 more tools). Manus gets the tools of
 * every server (`mcp_<server>_<tool>`); the mcp agent uses one server: the only one, or
 * the one `[mcp] agent_server` names.
 */

/**
 * One sentence about server NAME once added beside OTHERS; `toolCount` when a test has
 * listed its tools, else the agents get "all its tools".
 */
export function mcpReach(
  name: string,
  others: readonly string[],
  agentServer: string | null,
  toolCount?: number,
): string {
  const tools =
    toolCount === undefined
      ? 'all its tools'
      : `its ${toolCount} tool${toolCount === 1 ? '' : 's'}`;
  const manus = `Manus (and PlanningFlow's Manus steps) will get ${tools} in every run, named mcp_${name}_TOOL`;
  const rest = others.filter((o) => o !== name);
  const mcpAgent =
    agentServer === name || (agentServer === null && rest.length === 0)
      ? `the mcp agent will use ${tools}`
      : agentServer !== null
        ? `the mcp agent keeps using ${agentServer} ([mcp] agent_server)`
        : `the mcp agent will need [mcp] agent_server to choose among ${[...rest, name].join(', ')}`;
  return `${manus}; ${mcpAgent}.`;
}
