/**
 * Builds the agent for a run. This slice always uses the built-in demo model with a
 * ToolCallAgent and `terminate`; configuration-driven model clients and the full agent
 * set replace it in their own issues.
 */
import { ToolCallAgent, TOOLCALL_DEFAULT_MAX_STEPS } from '../agent/toolcall-agent';
import { createDemoLlm } from '../demo/demo-model';
import type { LlmClient } from '../llm/llm-client';
import { createTerminateTool } from '../tools/terminate';
import { ToolRegistry } from '../tools/tool-registry';
import type { RunFactory } from './run-manager';

export function createDefaultRunFactory(options: { llm?: () => LlmClient } = {}): RunFactory {
  return async (input, context) => {
    const llm = options.llm?.() ?? createDemoLlm();
    const tools = new ToolRegistry([createTerminateTool()]);
    const maxSteps = input.maxSteps ?? TOOLCALL_DEFAULT_MAX_STEPS;
    const agent = new ToolCallAgent(
      {
        name: input.agent,
        maxSteps,
        systemPrompt: 'You are a helpful agent. Call terminate when done.',
      },
      { llm, tools },
      { emit: context.emit, runId: context.runId },
    );
    return {
      agentName: input.agent,
      model: llm.model,
      maxSteps,
      execute: (task, signal) => agent.run(task, { signal }),
      dispose: () => tools.dispose(),
    };
  };
}
