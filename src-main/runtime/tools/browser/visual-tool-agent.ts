/**
 * A ToolCallAgent whose tools may return images (the browser and MCP agents). After each
 * batch of tool calls it appends the collected images as user messages that belong to
 * the batch's turn (so the memory window drops them together) and trims older images.
 *
 * The loop itself (agent/toolcall-agent.ts) does not attach `ToolResult.image` yet; once
 * it does, this class can go and the catalog can build plain ToolCallAgents.
 */
import type { AgentEnvironment, StepContext } from '../../agent/base-agent';
import { ToolCallAgent, type ToolCallAgentSettings } from '../../agent/toolcall-agent';
import type { LlmClient } from '../../llm/llm-client';
import type { Tool } from '../tool';
import { ToolRegistry } from '../tool-registry';
import { ToolImageRelay, imageMessage, trimImages } from './tool-images';

export interface VisualToolAgentSettings extends ToolCallAgentSettings {
  /** images kept in memory; older ones are replaced by a note */
  keepImages: number;
}

export class VisualToolAgent extends ToolCallAgent {
  private readonly keepImages: number;

  constructor(
    settings: VisualToolAgentSettings,
    deps: { llm: LlmClient; tools: ToolRegistry },
    env: AgentEnvironment,
    private readonly relay: ToolImageRelay,
  ) {
    super(settings, deps, env);
    this.keepImages = settings.keepImages;
  }

  /** Builds the agent with its tools wrapped so their images come through the relay. */
  static create(
    settings: VisualToolAgentSettings,
    deps: { llm: LlmClient; tools: Tool[] },
    env: AgentEnvironment,
  ): VisualToolAgent {
    const relay = new ToolImageRelay();
    const registry = new ToolRegistry(deps.tools.map((tool) => relay.wrap(tool)));
    return new VisualToolAgent(settings, { llm: deps.llm, tools: registry }, env, relay);
  }

  protected override async act(context: StepContext): Promise<string> {
    this.relay.take(); // images of a batch that was cancelled midway are not carried over
    const summary = await super.act(context);
    for (const relayed of this.relay.take()) {
      this.addMessage(imageMessage(relayed), { followsTurn: true });
    }
    trimImages(this.memory.messages, this.keepImages);
    return summary;
  }
}
