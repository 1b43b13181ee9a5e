/**
 * The browser of one session: a Chromium process, one browsing context and its tabs.
 * It is a session resource (`session.use`), so the runs of a session share the pages
 * they opened and closing the session closes the browser. Nothing here is global: two
 * sessions get two browsers (fixes openmanus.md 7.2 item 8 for the browser).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BrowserSettings } from '../../config/schema';
import type { Session, SessionResource } from '../../session/session';
import { launchChromium } from './chromium';
import type { TabInfo } from './page-state';

export const BROWSER_RESOURCE_KEY = 'browser';
export const VIEWPORT = { width: 1280, height: 800 } as const;
const ACTION_TIMEOUT_MS = 10_000;
const NAVIGATION_TIMEOUT_MS = 30_000;

type LaunchSettings = Pick<BrowserSettings, 'executable_path' | 'headless'>;

export class BrowserSession implements SessionResource {
  private readonly tabIds = new Map<Page, number>();
  private nextTabId = 0;
  private active: Page | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private isAlive = true;
  private isDisposed = false;
  /** told once, with the first action that uses this browser */
  private launchWarning: string | undefined;

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    readonly fingerprint: string,
  ) {
    browser.on('disconnected', () => {
      this.isAlive = false;
    });
    context.on('page', (page) => this.register(page));
  }

  static async launch(settings: LaunchSettings): Promise<BrowserSession> {
    const { browser, warning } = await launchChromium(settings);
    try {
      const context = await browser.newContext({
        viewport: VIEWPORT,
        acceptDownloads: false,
      });
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
      const session = new BrowserSession(browser, context, browserFingerprint(settings));
      session.active = await context.newPage();
      if (warning) {
        session.launchWarning = warning;
        console.warn(`[workbench] ${warning}`);
      }
      return session;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  /** How the browser was started, if the user should know (once). */
  takeLaunchWarning(): string | undefined {
    const warning = this.launchWarning;
    this.launchWarning = undefined;
    return warning;
  }

  /** False once Chromium exited or crashed; the next use starts a new one. */
  get alive(): boolean {
    return this.isAlive && !this.isDisposed && this.browser.isConnected();
  }

  /**
   * Runs browser actions one at a time: two runs of a session that browse at once must
   * not interleave inside an action (a click landing between another run's navigation).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The tab actions apply to; a blank one is opened when every tab was closed. */
  async activePage(): Promise<Page> {
    if (this.active && !this.active.isClosed()) return this.active;
    const open = this.pages();
    this.active = open.at(-1) ?? (await this.context.newPage());
    return this.active;
  }

  pages(): Page[] {
    return [...this.tabIds.keys()].filter((p) => !p.isClosed());
  }

  tabId(page: Page): number {
    return this.tabIds.get(page) ?? this.register(page);
  }

  async tabs(): Promise<TabInfo[]> {
    const active = await this.activePage();
    return Promise.all(
      this.pages().map(async (page) => ({
        id: this.tabId(page),
        title: await page.title().catch(() => ''),
        url: page.url(),
        active: page === active,
      })),
    );
  }

  async openTab(): Promise<Page> {
    const page = await this.context.newPage();
    this.active = page;
    return page;
  }

  switchTo(page: Page): void {
    this.active = page;
  }

  findTab(id: number): Page | undefined {
    return this.pages().find((p) => this.tabIds.get(p) === id);
  }

  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    await this.browser.close().catch(() => undefined);
  }

  private register(page: Page): number {
    const existing = this.tabIds.get(page);
    if (existing !== undefined) return existing;
    const id = this.nextTabId++;
    this.tabIds.set(page, id);
    page.on('close', () => {
      this.tabIds.delete(page);
      if (this.active === page) this.active = null;
    });
    return id;
  }
}

export function browserFingerprint(settings: LaunchSettings): string {
  return JSON.stringify([settings.executable_path ?? null, settings.headless]);
}

export interface BrowserLease {
  browser: BrowserSession;
  /** set when the browser had to be restarted, for the model to know its pages are gone */
  notice?: string;
}

/**
 * The session's browser, started on first use. A browser that died, or was started with
 * other settings than the current config, is replaced.
 */
export async function useBrowser(
  session: Session,
  settings: LaunchSettings,
): Promise<BrowserLease> {
  const create = () => BrowserSession.launch(settings);
  const current = await session.use(BROWSER_RESOURCE_KEY, create);
  if (current.alive && current.fingerprint === browserFingerprint(settings)) {
    const warning = current.takeLaunchWarning();
    return warning ? { browser: current, notice: warning } : { browser: current };
  }
  const notice = current.alive
    ? 'The [browser] settings changed, so the browser was restarted; earlier tabs are closed.'
    : 'The browser had stopped unexpectedly and was restarted; earlier tabs are gone.';
  // Another run of the session may have replaced it already: never release its new one.
  const latest = await session.use(BROWSER_RESOURCE_KEY, create);
  if (latest !== current) return { browser: latest, notice };
  await session.release(BROWSER_RESOURCE_KEY);
  return { browser: await session.use(BROWSER_RESOURCE_KEY, create), notice };
}
