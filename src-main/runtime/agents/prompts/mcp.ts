/**
 * Prompts of the MCP agent. The server's tools are offered under prefixed names
 * (mcp_<server>_<tool>); the agent finishes with the unprefixed `terminate` tool, which
 * is ours, not the server's (openmanus.md 7.2 item 7). Nothing here claims that images
 * were described (the original's multimedia prompt did: 7.2 item 13).
 */
import { renderTemplate, toolListValue } from '../definitions/template';

/**
 * The system prompt as a definition template (agents/definitions): `{{mcp_servers}}` is
 * the server, `{{tools}}` its tools' names, one "- NAME" line each.
 */
export const MCP_SYSTEM_PROMPT_TEMPLATE = `You are an agent that completes the user's task with the tools of the MCP server "{{mcp_servers}}".

Its tools are available to you under these names:
{{tools}}

Call them with arguments that match their parameter schemas. Read each result before deciding the next call; if a call fails, use the error message to fix the arguments or try another tool rather than repeating the same call. When a tool returns an image, it is attached to the next user message for you to look at.

When the task is complete, state the result plainly in your reply and call the \`terminate\` tool with status "success" in that same reply. If it cannot be completed, explain why and call \`terminate\` with status "failure". Only \`terminate\` ends the task, even if the server offers a tool with a similar name.`;

export function mcpSystemPrompt(serverName: string, toolNames: readonly string[]): string {
  return renderTemplate(MCP_SYSTEM_PROMPT_TEMPLATE, {
    mcp_servers: serverName,
    tools: toolListValue(toolNames),
  });
}

export const MCP_NEXT_STEP_PROMPT =
  'Decide the next tool call that moves the task forward, or, if the task is done, give the result and call terminate.';
