/**
 * Manus: the general agent. python_execute, bash and str_replace_editor in the session's
 * sandbox, the browser, ask_human, terminate, and the tools of every configured MCP
 * server (openmanus.md section 3, with bash added: the brief's Manus runs shell commands
 * in the sandbox too). Built as a VisualToolAgent so only the last few screenshots stay
 * in memory. Every instance gets its own tools.
 */
import { createAskHumanTool } from '../tools/ask-human';
import { VisualToolAgent } from '../loop/visual-tool-agent';
import { browserAndMcpTools } from './manus-extras';
import { sandboxToolset } from '../tools/sandbox/sandbox-toolset';
import { SANDBOX_NEED } from './sandbox-need';
import { createTerminateTool } from '../tools/terminate';
import {
  specialToolNames,
  withExtraTools,
  type AgentBuildInput,
  type BuiltAgent,
} from './build-input';
import { builtinDefinition } from './definitions/builtin-definitions';
import { renderTemplate } from './definitions/template';

export async function buildManusAgent(input: AgentBuildInput): Promise<BuiltAgent> {
  // It has other tools: a sandbox that cannot start ends the run only when the model
  // calls a sandbox tool after being told it cannot be used (sandbox-outage.ts).
  const sandbox = sandboxToolset(input, ['python_execute', 'bash', 'str_replace_editor'], {
    need: SANDBOX_NEED.manus,
  });
  const own = [...sandbox.tools, createAskHumanTool(input.services.human), createTerminateTool()];
  let extras;
  try {
    extras = await browserAndMcpTools(
      input,
      own.map((t) => t.name),
    );
  } catch (error) {
    await sandbox.dispose();
    throw error;
  }
  const definition = builtinDefinition('manus');
  let systemPrompt = renderTemplate(definition.system_prompt, {
    work_dir: input.config.sandbox.work_dir,
  });
  if (extras.failures.length > 0) {
    // An unreachable MCP server must not stop every Manus run: the model is told which
    // tools are missing and why, and the run goes on without them.
    const lines = extras.failures.map((f) => `- ${f.server}: ${f.error}`).join('\n');
    systemPrompt += `\n\nThese MCP servers could not be reached, so their tools are not available:\n${lines}`;
    for (const f of extras.failures)
      console.warn(`[workbench] MCP server ${f.server} unavailable: ${f.error}`);
  }
  const agent = VisualToolAgent.create(
    {
      ...input.settings,
      name: input.name,
      description: definition.description,
      systemPrompt,
      nextStepPrompt: definition.next_step_prompt,
      keepImages: extras.keepImages,
      specialToolNames: specialToolNames(input),
    },
    { llm: input.llm, tools: withExtraTools(input, [...own, ...extras.tools]) },
    input.env,
  );
  const stopFollowing = extras.follow(agent.tools);
  return {
    agent,
    dispose: async () => {
      stopFollowing();
      extras.detach();
      try {
        await agent.tools.dispose();
      } finally {
        await sandbox.dispose();
      }
    },
  };
}
