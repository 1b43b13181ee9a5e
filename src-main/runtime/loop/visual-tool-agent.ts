/**
 * A ToolCallAgent whose tools return images (the browser and MCP agents). The loop puts
 * each image on a user message after the tool results; this agent then keeps only the
 * newest `keepImages` of them in memory (openmanus.md 7.2 item 4: the original kept a
 * screenshot per step until the context overflowed).
 */
import type { Message } from '@shared/domain/message';
import type { AgentEnvironment, StepContext } from './base-agent';
import { ToolCallAgent, type ToolCallAgentSettings } from './toolcall-agent';
import type { LlmClient } from '../llm/llm-client';
import type { Tool } from '../tools/tool';
import { ToolRegistry } from '../tools/tool-registry';
import { trimImages } from '../tools/browser/tool-images';

export interface VisualToolAgentSettings extends ToolCallAgentSettings {
  /** images kept in memory; older ones are replaced by a note */
  keepImages: number;
}

export class VisualToolAgent extends ToolCallAgent {
  private readonly keepImages: number;
  /** messages whose image was dropped in place */
  private readonly trimmed = new WeakSet<Message>();

  constructor(
    settings: VisualToolAgentSettings,
    deps: { llm: LlmClient; tools: ToolRegistry },
    env: AgentEnvironment,
  ) {
    super(settings, deps, env);
    this.keepImages = settings.keepImages;
  }

  /** Builds the agent with its own registry of these tools (never shared). */
  static create(
    settings: VisualToolAgentSettings,
    deps: { llm: LlmClient; tools: Tool[] },
    env: AgentEnvironment,
  ): VisualToolAgent {
    return new VisualToolAgent(
      settings,
      { llm: deps.llm, tools: new ToolRegistry(deps.tools) },
      env,
    );
  }

  /** A fork's restored memory may hold every image its history kept: the newest few stay. */
  protected override beforeRun(): void {
    super.beforeRun();
    trimImages(this.memory.messages, this.keepImages, (m) => this.trimmed.add(m));
  }

  protected override async act(context: StepContext): Promise<string> {
    try {
      return await super.act(context);
    } finally {
      trimImages(this.memory.messages, this.keepImages, (m) => this.trimmed.add(m));
    }
  }

  /**
   * A trimmed message changed in place; the request carries a fresh copy of it so that
   * nothing cached per message object (token counts) describes it with its image.
   */
  protected override requestMessages(): Message[] {
    return super.requestMessages().map((m) => (this.trimmed.has(m) ? { ...m } : m));
  }
}
