/**
 * The catalog's `browser` agent: the browser tool and terminate, with screenshots
 * attached as user messages and only the last `[browser] keep_screenshots` kept.
 */
import {
  specialToolNames,
  withExtraTools,
  type AgentBuildInput,
  type BuiltAgent,
} from './build-input';
import { builtinDefinition } from './definitions/builtin-definitions';
import { createTerminateTool } from '../tools/terminate';
import { createBrowserTool } from '../tools/browser/browser-tool';
import { VisualToolAgent } from '../loop/visual-tool-agent';

export function buildBrowserAgent(input: AgentBuildInput): BuiltAgent {
  const definition = builtinDefinition('browser');
  const browser = createBrowserTool({
    session: input.session,
    settings: input.config.browser,
    llm: input.llm,
  });
  const agent = VisualToolAgent.create(
    {
      // every resolved run setting, so new ones reach the loop without touching this file
      ...input.settings,
      name: input.name,
      description: definition.description,
      systemPrompt: definition.system_prompt,
      nextStepPrompt: definition.next_step_prompt,
      keepImages: input.config.browser.keep_screenshots,
      specialToolNames: specialToolNames(input),
    },
    { llm: input.llm, tools: withExtraTools(input, [browser, createTerminateTool()]) },
    input.env,
  );
  // The browser itself belongs to the session and outlives the run.
  return { agent, dispose: () => agent.tools.dispose() };
}
