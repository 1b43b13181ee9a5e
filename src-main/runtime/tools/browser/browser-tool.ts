/**
 * The `browser` tool: drives the session's headless Chromium (playwright-core). After
 * each action the model gets the page state (URL, title, tabs, scroll position and the
 * indexed interactive elements) and, unless disabled, a JPEG screenshot of the visible
 * area as the result's image, which the agent attaches to a user message.
 */
import { z } from 'zod';
import type { BrowserSettings } from '../../config/schema';
import type { LlmClient } from '../../llm/llm-client';
import type { Session } from '../../session/session';
import { abortError, isCancellation, raceAbort } from '../../util/abort';
import { fail, ok, type Tool, type ToolContext, type ToolResult } from '../tool';
import {
  BROWSER_ACTIONS,
  BrowserActionError,
  DEFAULT_WAIT_SECONDS,
  REQUIRED_PARAMS,
  firstLine,
  runBrowserAction,
  type ActionOutcome,
  type BrowserActionArgs,
} from './browser-actions';
import type { BrowserSession } from './browser-session';
import { extractContent } from './extract-content';
import { capturePageState, formatPageState } from './page-state';

export const BROWSER_TOOL_NAME = 'browser';
const SCREENSHOT_QUALITY = 60;
/** characters kept free of the page state for the separators and a restart notice */
const STATE_RESERVE = 400;

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

export const browserToolSchema = z
  .object({
    action: z.enum(BROWSER_ACTIONS).describe('The browser action to perform.'),
    url: optional(z.string()).describe("Full http(s) URL, for 'go_to_url' and 'open_tab'."),
    index: optional(z.number().int().min(0)).describe(
      "Element index from the page state, for 'click_element', 'input_text', 'get_dropdown_options' and 'select_dropdown_option'.",
    ),
    text: optional(z.string()).describe(
      "Text for 'input_text', 'scroll_to_text', or the option text for 'select_dropdown_option'.",
    ),
    scroll_amount: optional(z.number().int().min(1).max(100_000)).describe(
      "Pixels to scroll for 'scroll_down' and 'scroll_up' (default: one screen).",
    ),
    tab_id: optional(z.number().int().min(0)).describe(
      "Tab id, for 'switch_tab' and 'close_tab' (close_tab without it closes the active tab).",
    ),
    goal: optional(z.string()).describe("What to extract from the page, for 'extract_content'."),
    from_char: optional(z.number().int().min(0)).describe(
      "For 'extract_content': the character of the page text to start reading at (the extraction says where the next part starts); default: where the page is scrolled to.",
    ),
    keys: optional(z.string()).describe(
      "Key or combination to press, for 'send_keys' (e.g. 'Enter', 'Tab', 'Control+A').",
    ),
    seconds: optional(z.number().min(0).max(60)).describe(
      `Seconds to wait, for 'wait' (default ${DEFAULT_WAIT_SECONDS}).`,
    ),
  })
  .strict()
  .superRefine((args, ctx) => {
    for (const key of REQUIRED_PARAMS[args.action] ?? []) {
      if (args[key] === undefined || args[key] === null) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `the ${args.action} action needs '${key}'`,
        });
      }
    }
  });

export type BrowserToolArgs = z.infer<typeof browserToolSchema>;

/** what the model is told of the browser tool (also listed by the Agents page's tool picker) */
export const BROWSER_TOOL_DESCRIPTION = `Control a web browser (headless Chromium) to visit pages and interact with them.
Actions and their parameters:
- go_to_url (url): open a URL in the active tab
- click_element (index): click the element with this index
- input_text (index, text): type text into a form field
- scroll_down / scroll_up (scroll_amount optional): scroll by pixels, default one screen
- scroll_to_text (text): scroll to the first place showing this text
- send_keys (keys): press a key or combination, e.g. Enter, Escape, Control+A
- get_dropdown_options (index): list the options of a dropdown
- select_dropdown_option (index, text): choose a dropdown option by its text
- go_back: go back in the active tab's history
- wait (seconds optional): wait for the page, default ${DEFAULT_WAIT_SECONDS} seconds
- extract_content (goal, from_char optional): read the page text from where the page is scrolled to (or from from_char) and extract what the goal asks for
- switch_tab (tab_id), open_tab (url), close_tab (tab_id optional)
After each action you get the page state: URL, title, tabs, scroll position and the numbered interactive elements in and near the visible area (use those numbers as 'index'; a number stays the same until the page changes). There is no web search: open URLs directly.`;

export interface BrowserToolOptions {
  session: Session;
  settings: BrowserSettings;
  /** the agent's model, used by extract_content */
  llm: LlmClient;
}

export function createBrowserTool(options: BrowserToolOptions): Tool<BrowserToolArgs> {
  return {
    name: BROWSER_TOOL_NAME,
    description: BROWSER_TOOL_DESCRIPTION,
    schema: browserToolSchema,
    execute: (args, context) => executeBrowserAction(args, context, options),
  };
}

async function executeBrowserAction(
  args: BrowserToolArgs,
  context: ToolContext,
  options: BrowserToolOptions,
): Promise<ToolResult> {
  if (context.signal.aborted) throw abortError(context.signal);
  let lease;
  try {
    // playwright-core loads with the first browser action, not with every agent that has
    // the tool (issue 16 item 7: it added about half a second to every CLI run).
    const { useBrowser } = await import('./browser-session');
    lease = await useBrowser(options.session, options.settings);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const { browser, notice } = lease;
  const work = browser.exclusive(() => performAndObserve(browser, args, context, options));
  const observed = await raceAbort(work, context.signal);
  // The extraction's model call runs outside the browser's lock: another run of the
  // session need not wait for this model to answer.
  const result =
    'extraction' in observed ? await extract(observed.extraction, context, options) : observed;
  if (!notice) return result;
  return result.error !== undefined
    ? { ...result, error: `${notice}\n${result.error}` }
    : { ...result, output: `${notice}\n${result.output}` };
}

async function extract(
  { page, goal }: NonNullable<ActionOutcome['extraction']>,
  context: ToolContext,
  options: BrowserToolOptions,
): Promise<ToolResult> {
  try {
    return ok(
      await extractContent(page, goal, {
        llm: options.llm,
        maxContentLength: options.settings.max_content_length,
        signal: context.signal,
        agent: context.agent,
        step: context.step,
        emit: context.emit,
      }),
    );
  } catch (caught) {
    if (isCancellation(caught, context.signal)) throw caught;
    return fail(`extract_content failed: ${firstLine(caught)}`);
  }
}

async function performAndObserve(
  browser: BrowserSession,
  args: BrowserToolArgs,
  context: ToolContext,
  options: BrowserToolOptions,
): Promise<ToolResult | { extraction: NonNullable<ActionOutcome['extraction']> }> {
  let outcome: ActionOutcome | null = null;
  let error: string | null = null;
  try {
    outcome = await runBrowserAction(args as BrowserActionArgs, {
      browser,
      signal: context.signal,
    });
  } catch (caught) {
    if (isCancellation(caught, context.signal)) throw caught;
    error =
      caught instanceof BrowserActionError
        ? caught.message
        : `${args.action} failed: ${firstLine(caught)}`;
  }
  if (outcome?.extraction) return { extraction: outcome.extraction };
  if (outcome && !outcome.showState) return ok(outcome.message);

  const parts = outcome ? [outcome.message] : [];
  let image: ToolResult['image'];
  try {
    const page = await browser.activePage();
    const state = await capturePageState(page, await browser.tabs());
    // Fit the list into what the model will see: the observation cap must not cut it.
    const budget =
      context.outputBudget === undefined
        ? undefined
        : context.outputBudget - parts.join('\n\n').length - (error?.length ?? 0) - STATE_RESERVE;
    parts.push(formatPageState(state, budget));
    if (options.settings.keep_screenshots > 0) {
      const shot = await page.screenshot({
        type: 'jpeg',
        quality: SCREENSHOT_QUALITY,
        timeout: 5_000,
        animations: 'disabled',
        caret: 'hide',
      });
      image = { mimeType: 'image/jpeg', data: shot.toString('base64') };
    }
  } catch (caught) {
    if (isCancellation(caught, context.signal)) throw caught;
    parts.push(`(The page state could not be read: ${firstLine(caught)})`);
  }
  const extra = image ? { image } : {};
  const text = parts.join('\n\n');
  return error === null ? ok(text, extra) : fail(text ? `${error}\n\n${text}` : error, extra);
}
