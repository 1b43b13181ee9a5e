/**
 * MCP data the UI and the CLI see: a server's prompts with their arguments (the New run
 * form's prompt picker, `workbench mcp prompts`).
 */

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

/** One configured server's prompts, or why they could not be listed. */
export interface McpServerPrompts {
  server: string;
  prompts: McpPromptInfo[];
  error?: string;
}

/** A run started from a prompt: which one, with which arguments. */
export interface McpPromptChoice {
  server: string;
  name: string;
  arguments: Record<string, string>;
}

/** `mcp:prompts`: every configured server's prompts, or one server's */
export interface McpPromptsInput {
  server?: string;
}
