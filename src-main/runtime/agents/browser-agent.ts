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
import { BROWSER_NEXT_STEP_PROMPT, BROWSER_SYSTEM_PROMPT } from './prompts/browser';
import { createTerminateTool } from '../tools/terminate';
import { createBrowserTool } from '../tools/browser/browser-tool';
import { VisualToolAgent } from '../loop/visual-tool-agent';

export function buildBrowserAgent(input: AgentBuildInput): BuiltAgent {
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
      description: 'Browses the web with a headless Chromium.',
      systemPrompt: BROWSER_SYSTEM_PROMPT,
      nextStepPrompt: BROWSER_NEXT_STEP_PROMPT,
      keepImages: input.config.browser.keep_screenshots,
      specialToolNames: specialToolNames(input),
    },
    { llm: input.llm, tools: withExtraTools(input, [browser, createTerminateTool()]) },
    input.env,
  );
  // The browser itself belongs to the session and outlives the run.
  return { agent, dispose: () => agent.tools.dispose() };
}
