/**
 * What an agent builder receives and returns, and the helpers every builder uses to
 * honour a caller's extras. Kept apart from the catalog so builders in other folders
 * (browser, MCP, Manus) depend on this small module, not on the catalog itself.
 */
import type { McpPromptChoice } from '@shared/domain/mcp';
import type { AgentEnvironment } from '../loop/base-agent';
import type { ToolCallAgent } from '../loop/toolcall-agent';
import type { AgentRunSettings, WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import type { RuntimeServices } from './runtime-services';
import type { Session } from '../session/session';
import type { Tool } from '../tools/tool';

export interface AgentBuildInput {
  /** the agent's name in the run's events: a built-in agent's, or a user agent's */
  name: string;
  llm: LlmClient;
  settings: AgentRunSettings;
  config: WorkbenchConfig;
  session: Session;
  services: RuntimeServices;
  env: AgentEnvironment;
  /** added by a caller such as PlanningFlow (its planning and finish_plan tools) */
  extras?: AgentExtras;
  /**
   * a model client of the named `[llm.NAME]` profile (an MCP server's `sampling_profile`);
   * throws for an unknown name
   */
  modelFor?: (profile: string) => LlmClient;
  /** the MCP prompt the run starts from (the mcp agent only) */
  prompt?: McpPromptChoice;
  /** the task as given (the mcp agent adds it after a prompt's messages) */
  task?: string;
}

/** Tools a caller adds to an agent, and which of its tool names end the agent's run. */
export interface AgentExtras {
  tools: Tool[];
  specialToolNames: string[];
}

/** An agent's own tools plus the caller's extras. */
export function withExtraTools(input: AgentBuildInput, own: Tool[]): Tool[] {
  return [...own, ...(input.extras?.tools ?? [])];
}

/** The agent's own special tool names (terminate) plus the caller's. */
export function specialToolNames(input: AgentBuildInput, own: string[] = ['terminate']): string[] {
  return [...own, ...(input.extras?.specialToolNames ?? [])];
}

/** An agent ready to run, and what to release when its run is over. */
export interface BuiltAgent {
  agent: ToolCallAgent;
  /** the task the agent gets instead of the one given (made from an MCP prompt) */
  task?: string;
  dispose(): Promise<void>;
}

export type AgentBuilder = (input: AgentBuildInput) => BuiltAgent | Promise<BuiltAgent>;
