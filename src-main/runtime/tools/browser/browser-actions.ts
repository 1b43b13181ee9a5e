/**
 * The browser tool's actions (OpenManus browser_use, without web_search: with no
 * internet access it could not be made honest). Each returns a sentence for the model;
 * the tool adds the page state and a screenshot after it.
 */
import type { Frame, Page, Request } from 'playwright-core';
import { abortableSleep } from '../../util/abort';
import type { BrowserSession } from './browser-session';
import { readPageText, type PageText } from './extract-content';
import { PAGE_SCRIPTS, callScript, elementSelector } from './page-script';

export const BROWSER_ACTIONS = [
  'go_to_url',
  'click_element',
  'input_text',
  'scroll_down',
  'scroll_up',
  'scroll_to_text',
  'send_keys',
  'get_dropdown_options',
  'select_dropdown_option',
  'go_back',
  'wait',
  'extract_content',
  'switch_tab',
  'open_tab',
  'close_tab',
] as const;
export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

export interface BrowserActionArgs {
  action: BrowserAction;
  url?: string | null;
  index?: number | null;
  text?: string | null;
  scroll_amount?: number | null;
  tab_id?: number | null;
  goal?: string | null;
  /** extract_content: where in the page text to start reading */
  from_char?: number | null;
  keys?: string | null;
  seconds?: number | null;
}

export interface ActionEnv {
  browser: BrowserSession;
  signal: AbortSignal;
}

export interface ActionOutcome {
  message: string;
  /** false for actions whose answer is the output itself (extraction, option lists) */
  showState: boolean;
  /** extract_content: the page text read, for the tool to ask the model about */
  extraction?: { page: PageText; goal: string };
}

/** A failure the model can act on; the tool still shows the page state after it. */
export class BrowserActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserActionError';
  }
}

export const DEFAULT_WAIT_SECONDS = 3;
/** how long a click may take to open a tab by script (window.open) */
const POPUP_GRACE_MS = 250;
/** how long a link with a target (target="_blank") may take to open its tab */
const POPUP_WAIT_MS = 5_000;

type Handler = (args: BrowserActionArgs, env: ActionEnv) => Promise<ActionOutcome>;

const show = (message: string): ActionOutcome => ({ message, showState: true });

const HANDLERS: Record<BrowserAction, Handler> = {
  async go_to_url(args, env) {
    const url = checkUrl(need(args.url, 'url', 'go_to_url'));
    const page = await env.browser.activePage();
    const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    await settle(page);
    const status = response ? ` (HTTP ${response.status()})` : '';
    return show(`Navigated to ${url}${status}.`);
  },

  async click_element(args, env) {
    const index = need(args.index, 'index', 'click_element');
    const page = await env.browser.activePage();
    const element = await findElement(page, index);
    const urlBefore = page.url();
    // A link with target=_blank or a window.open() reports its tab a moment after the
    // click resolves: listen during the click and give it a short grace period.
    let popup: Page | null = null;
    const onPopup = (opened: Page) => {
      popup = opened;
    };
    const target = (await element.getAttribute('target').catch(() => null))?.toLowerCase();
    const opensTab = target !== undefined && !['', '_self', '_parent', '_top'].includes(target);
    page.on('popup', onPopup);
    try {
      await settleAfter(page, () => element.click());
      if (!popup && opensTab) {
        await page.waitForEvent('popup', { timeout: POPUP_WAIT_MS }).catch(() => undefined);
      } else if (!popup) {
        await abortableSleep(POPUP_GRACE_MS, env.signal);
      }
    } finally {
      page.off('popup', onPopup);
    }
    let message = `Clicked element [${index}].`;
    const newTab = popup as Page | null;
    if (newTab && !newTab.isClosed()) {
      env.browser.switchTo(newTab);
      await settle(newTab);
      message += ` It opened a new tab [${env.browser.tabId(newTab)}], which is now the active tab.`;
    } else if (page.url() !== urlBefore) {
      message += ` The page navigated to ${page.url()}.`;
    }
    return show(message);
  },

  async input_text(args, env) {
    const index = need(args.index, 'index', 'input_text');
    const text = need(args.text, 'text', 'input_text');
    const page = await env.browser.activePage();
    const element = await findElement(page, index);
    const tag = await page.evaluate(callScript(PAGE_SCRIPTS.tagName, elementSelector(index)));
    if (tag === 'select') {
      throw new BrowserActionError(
        `Element [${index}] is a dropdown: use select_dropdown_option to choose one of its options.`,
      );
    }
    await element.fill(text);
    return show(`Typed ${JSON.stringify(text)} into element [${index}].`);
  },

  async scroll_down(args, env) {
    return scroll(env, args.scroll_amount ?? null, 1);
  },

  async scroll_up(args, env) {
    return scroll(env, args.scroll_amount ?? null, -1);
  },

  async scroll_to_text(args, env) {
    const text = need(args.text, 'text', 'scroll_to_text');
    const page = await env.browser.activePage();
    const match = page.getByText(text, { exact: false }).first();
    if ((await match.count()) === 0) {
      throw new BrowserActionError(`The text ${JSON.stringify(text)} is not on the page.`);
    }
    await match.scrollIntoViewIfNeeded();
    return show(`Scrolled to the text ${JSON.stringify(text)}.`);
  },

  async send_keys(args, env) {
    const keys = need(args.keys, 'keys', 'send_keys');
    const page = await env.browser.activePage();
    try {
      await settleAfter(page, () => page.keyboard.press(keys));
    } catch (error) {
      throw new BrowserActionError(
        `Could not press ${JSON.stringify(keys)}: ${firstLine(error)}. Use key names such as Enter, Tab, Escape, ArrowDown or Control+A.`,
      );
    }
    return show(`Pressed ${keys}.`);
  },

  async get_dropdown_options(args, env) {
    const index = need(args.index, 'index', 'get_dropdown_options');
    const page = await env.browser.activePage();
    const options = await selectOptions(page, index);
    const lines = options.map(
      (o) =>
        `${o.index}: ${JSON.stringify(o.text)} (value ${JSON.stringify(o.value)})${o.selected ? ' (selected)' : ''}`,
    );
    return {
      message: `Options of dropdown [${index}] (choose one with select_dropdown_option and its text):\n${lines.join('\n')}`,
      showState: false,
    };
  },

  async select_dropdown_option(args, env) {
    const index = need(args.index, 'index', 'select_dropdown_option');
    const text = need(args.text, 'text', 'select_dropdown_option');
    const page = await env.browser.activePage();
    const options = await selectOptions(page, index);
    const option =
      options.find((o) => o.text === text) ??
      options.find((o) => o.value === text) ??
      options.find((o) => o.text.toLowerCase() === text.toLowerCase());
    if (!option) {
      throw new BrowserActionError(
        `Dropdown [${index}] has no option ${JSON.stringify(text)}. Its options: ${options.map((o) => JSON.stringify(o.text)).join(', ')}.`,
      );
    }
    await settleAfter(page, () =>
      page.locator(elementSelector(index)).selectOption({ index: option.index }),
    );
    return show(`Selected ${JSON.stringify(option.text)} in dropdown [${index}].`);
  },

  async go_back(_args, env) {
    const page = await env.browser.activePage();
    const response = await page.goBack({ waitUntil: 'domcontentloaded' });
    if (!response && page.url() === 'about:blank') {
      throw new BrowserActionError('There is no previous page in this tab.');
    }
    await settle(page);
    return show(`Went back to ${page.url()}.`);
  },

  async wait(args, env) {
    const seconds = args.seconds ?? DEFAULT_WAIT_SECONDS;
    await abortableSleep(seconds * 1000, env.signal);
    return show(`Waited ${seconds} seconds.`);
  },

  async extract_content(args, env) {
    const goal = need(args.goal, 'goal', 'extract_content');
    const page = await env.browser.activePage();
    const read = await readPageText(page);
    const fromChar = args.from_char ?? undefined;
    return {
      message: '',
      showState: false,
      extraction: { page: fromChar === undefined ? read : { ...read, fromChar }, goal },
    };
  },

  async switch_tab(args, env) {
    const id = need(args.tab_id, 'tab_id', 'switch_tab');
    const page = env.browser.findTab(id);
    if (!page) throw new BrowserActionError(`There is no tab [${id}].`);
    env.browser.switchTo(page);
    await page.bringToFront();
    return show(`Switched to tab [${id}].`);
  },

  async open_tab(args, env) {
    const url = checkUrl(need(args.url, 'url', 'open_tab'));
    const page = await env.browser.openTab();
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await settle(page);
    return show(`Opened ${url} in a new tab [${env.browser.tabId(page)}], now the active tab.`);
  },

  async close_tab(args, env) {
    const page =
      args.tab_id === undefined || args.tab_id === null
        ? await env.browser.activePage()
        : env.browser.findTab(args.tab_id);
    if (!page) throw new BrowserActionError(`There is no tab [${args.tab_id}].`);
    const id = env.browser.tabId(page);
    await page.close();
    const next = await env.browser.activePage();
    return show(`Closed tab [${id}]; the active tab is now [${env.browser.tabId(next)}].`);
  },
};

export function runBrowserAction(args: BrowserActionArgs, env: ActionEnv): Promise<ActionOutcome> {
  return HANDLERS[args.action](args, env);
}

/** Which parameters each action needs (the schema's refinement and the description use it). */
export const REQUIRED_PARAMS: Partial<Record<BrowserAction, (keyof BrowserActionArgs)[]>> = {
  go_to_url: ['url'],
  click_element: ['index'],
  input_text: ['index', 'text'],
  scroll_to_text: ['text'],
  send_keys: ['keys'],
  get_dropdown_options: ['index'],
  select_dropdown_option: ['index', 'text'],
  extract_content: ['goal'],
  switch_tab: ['tab_id'],
  open_tab: ['url'],
};

function need<T>(value: T | null | undefined, name: string, action: BrowserAction): T {
  if (value === undefined || value === null) {
    throw new BrowserActionError(`The ${action} action needs '${name}'.`);
  }
  return value;
}

/** Only web pages: the browser runs on the user's machine, file: URLs would expose it. */
export function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new BrowserActionError(
      `${JSON.stringify(raw)} is not a valid URL: give a full address starting with http:// or https://.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.href !== 'about:blank') {
    throw new BrowserActionError(
      `Only http:// and https:// addresses can be opened, not ${url.protocol} URLs.`,
    );
  }
  return url.href;
}

async function findElement(page: Page, index: number) {
  const locator = page.locator(elementSelector(index));
  if ((await locator.count()) === 0) {
    throw new BrowserActionError(
      `There is no element [${index}] on the current page (the page may have changed). Use an index from the latest state below.`,
    );
  }
  return locator.first();
}

interface SelectOption {
  index: number;
  text: string;
  value: string;
  selected: boolean;
}

async function selectOptions(page: Page, index: number): Promise<SelectOption[]> {
  const result = (await page.evaluate(
    callScript(PAGE_SCRIPTS.selectOptions, elementSelector(index)),
  )) as { missing?: true; notSelect?: string; options?: SelectOption[] };
  if (result.missing) {
    throw new BrowserActionError(
      `There is no element [${index}] on the current page (the page may have changed).`,
    );
  }
  if (result.notSelect) {
    throw new BrowserActionError(
      `Element [${index}] is a <${result.notSelect}>, not a dropdown (<select>).`,
    );
  }
  return result.options ?? [];
}

async function scroll(
  env: ActionEnv,
  amount: number | null,
  direction: 1 | -1,
): Promise<ActionOutcome> {
  const page = await env.browser.activePage();
  const viewport = page.viewportSize();
  const pixels = amount ?? viewport?.height ?? 800;
  await page.evaluate(callScript(PAGE_SCRIPTS.scrollBy, direction * pixels));
  return show(`Scrolled ${direction > 0 ? 'down' : 'up'} by ${pixels} pixels.`);
}

const NAVIGATION_START_GRACE_MS = 100;

/**
 * Runs an action that may navigate (a click on a link, Enter in a form) and waits until
 * the new document has loaded, so the state read next is the new page's. A navigation
 * the action only requested has not replaced the old document yet; waiting for a load
 * state alone would read the old page.
 */
async function settleAfter(page: Page, action: () => Promise<unknown>): Promise<void> {
  const main = page.mainFrame();
  let requested = false;
  let committed = false;
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === main) requested = true;
  };
  const onNavigated = (frame: Frame) => {
    if (frame === main) committed = true;
  };
  page.on('request', onRequest);
  page.on('framenavigated', onNavigated);
  try {
    await action();
    await new Promise((resolve) => setTimeout(resolve, NAVIGATION_START_GRACE_MS));
    if (requested && !committed) {
      await page
        .waitForEvent('framenavigated', { predicate: (f) => f === main, timeout: 15_000 })
        .catch(() => undefined);
    }
  } finally {
    page.off('request', onRequest);
    page.off('framenavigated', onNavigated);
  }
  await settle(page);
}

/** Lets a navigation an action started finish, without waiting forever on busy pages. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded', { timeout: 10_000 }).catch(() => undefined);
  await page.waitForLoadState('load', { timeout: 3_000 }).catch(() => undefined);
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).trim();
}
