/**
 * MCP prompts: a server's named message templates (`prompts/list`, `prompts/get`). A run
 * can start from one (`workbench run --agent mcp --prompt SERVER/NAME --arg k=v`, the New
 * run form): its messages become the task, and `run.started.prompt` records which prompt
 * and arguments gave it (docs/mcp.md, "Prompts").
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { McpPromptInfo } from '@shared/domain/mcp';
import type { McpConnection } from './mcp-connection';

/** The server's prompts with their arguments (none when it has no prompts capability). */
export async function listPrompts(
  connection: McpConnection,
  signal?: AbortSignal,
): Promise<McpPromptInfo[]> {
  return connection.withClient('listing its prompts', signal, async (client, options) => {
    if (!client.getServerCapabilities()?.prompts) return [];
    const prompts: McpPromptInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
      prompts.push(...page.prompts.map(promptInfo));
      cursor = page.nextCursor;
    } while (cursor);
    return prompts;
  });
}

export async function getPrompt(
  connection: McpConnection,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<GetPromptResult> {
  return connection.withClient(`getting prompt "${name}"`, signal, (client, options) =>
    client.getPrompt({ name, arguments: args }, options),
  );
}

export function promptInfo(prompt: Prompt): McpPromptInfo {
  return {
    name: prompt.name,
    ...(prompt.title ? { title: prompt.title } : {}),
    ...(prompt.description ? { description: prompt.description } : {}),
    arguments: (prompt.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description ? { description: a.description } : {}),
      required: a.required === true,
    })),
  };
}

/** Arguments the prompt requires but were not given, and ones it does not take. */
export function argumentProblems(
  prompt: McpPromptInfo,
  given: Record<string, string>,
): string | null {
  const missing = prompt.arguments
    .filter((a) => a.required && !(given[a.name] ?? '').trim())
    .map((a) => a.name);
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(given).filter((name) => !known.has(name));
  const problems = [
    ...(missing.length > 0 ? [`it requires ${missing.join(', ')}`] : []),
    ...(unknown.length > 0
      ? [`it takes no ${unknown.join(', ')} (its arguments: ${[...known].join(', ') || 'none'})`]
      : []),
  ];
  return problems.length > 0 ? problems.join('; ') : null;
}

type PromptMessage = GetPromptResult['messages'][number];

/**
 * The prompt's messages as one task text. A prompt of user messages only reads as they
 * do; one that also holds assistant turns keeps who said what.
 */
export function promptTask(result: GetPromptResult): string {
  const messages = result.messages;
  const isUserOnly = messages.every((m) => m.role === 'user');
  return messages
    .map((m) =>
      isUserOnly
        ? contentText(m)
        : `${m.role === 'user' ? 'User' : 'Assistant'}: ${contentText(m)}`,
    )
    .join('\n\n')
    .trim();
}

function contentText(message: PromptMessage): string {
  const part = message.content;
  switch (part.type) {
    case 'text':
      return part.text;
    case 'resource':
      return 'text' in part.resource
        ? `Resource ${part.resource.uri}:\n${part.resource.text}`
        : `[resource ${part.resource.uri} (${part.resource.mimeType ?? 'binary'}) not included]`;
    case 'resource_link':
      return `Resource link: ${part.uri}`;
    default:
      return `[${part.type} content not included]`;
  }
}
