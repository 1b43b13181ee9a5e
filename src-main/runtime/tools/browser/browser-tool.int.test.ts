/**
 * The browser tool against a real Chromium and a local test site: actions, the page
 * state, screenshots, cancellation, per-session browsers and recovery after a crash.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { ScriptedLlm } from '../../llm/scripted-llm';
import { Session } from '../../session/session';
import type { ToolContext, ToolResult } from '../tool';
import { BROWSER_RESOURCE_KEY, BrowserSession } from './browser-session';
import { createBrowserTool, type BrowserToolArgs } from './browser-tool';
import { probeChromium } from './testing/chromium-env';
import { startTestSite, type TestSite } from './testing/test-site';

const chromium = probeChromium();
const settings = { headless: true, max_content_length: 2000, keep_screenshots: 3 };
const workspace = mkdtempSync(join(tmpdir(), 'wb-browser-'));

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    runId: 'run-browser',
    agent: 'browser',
    step: 1,
    toolCallId: 'call_1',
    emit: () => undefined,
    ...overrides,
  };
}

/** Chromium processes started by this test process (the session's browser). */
function chromiumChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).toString();
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm?.includes('chrom'))
    .map(([pid]) => Number(pid));
}

/** The index the page state gives an element whose text matches. */
function indexOf(result: ToolResult, text: string): number {
  const body = result.output || result.error || '';
  const line = body.split('\n').find((l) => /^\[\d+\]</.test(l) && l.includes(text));
  if (!line) throw new Error(`no element with "${text}" in:\n${body}`);
  return Number(/^\[(\d+)\]/.exec(line)![1]);
}

describe.skipIf(!chromium.available)('browser tool (real Chromium)', () => {
  let site: TestSite;
  const sessions: Session[] = [];
  const newSession = (id: string) => {
    const session = new Session(id, workspace);
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    site = await startTestSite();
  });
  afterEach(async () => {
    await Promise.allSettled(sessions.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await site.close();
  });

  it('opens a page and reports URL, title, tabs, scroll position, indexed elements and a JPEG screenshot', async () => {
    const tool = createBrowserTool({
      session: newSession('state'),
      settings,
      llm: new ScriptedLlm([]),
    });
    const result = await tool.execute({ action: 'go_to_url', url: `${site.url}/` }, context());
    expect(result.error).toBeUndefined();
    expect(result.output).toContain(`Navigated to ${site.url}/ (HTTP 200).`);
    expect(result.output).toContain('Title: Start page');
    expect(result.output).toMatch(/Tabs: \[0\] Start page \(.*\) \(active\)/);
    expect(result.output).toMatch(/Scroll: 0 pixels above and \d+ pixels below/);
    expect(result.output).toMatch(/\[\d+\]<a href="\/second">Go to the second page<\/a>/);
    expect(result.image?.mimeType).toBe('image/jpeg');
    const bytes = Buffer.from(result.image!.data, 'base64');
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]); // really a JPEG

    const long = await tool.execute({ action: 'go_to_url', url: `${site.url}/long` }, context());
    const below = Number(/(\d+) pixels below/.exec(long.output)![1]);
    expect(below).toBeGreaterThan(1500);
    const scrolled = await tool.execute({ action: 'scroll_down', scroll_amount: 500 }, context());
    expect(scrolled.output).toContain('Scrolled down by 500 pixels.');
    expect(scrolled.output).toContain(`500 pixels above and ${below - 500} pixels below`);
    const found = await tool.execute(
      { action: 'scroll_to_text', text: 'Bottom marker' },
      context(),
    );
    expect(found.output).toMatch(/\d+ pixels above and 0 pixels below/);
    const up = await tool.execute({ action: 'scroll_up' }, context());
    expect(up.output).toContain('Scrolled up by 800 pixels.');
  });

  it('clicks, types, picks dropdown options, sends keys, goes back and handles tabs', async () => {
    const session = newSession('actions');
    const tool = createBrowserTool({ session, settings, llm: new ScriptedLlm([]) });
    const run = (args: BrowserToolArgs) => tool.execute(args, context());

    const start = await run({ action: 'go_to_url', url: `${site.url}/` });
    const form = await run({ action: 'click_element', index: indexOf(start, 'Open the form') });
    expect(form.output).toContain(`The page navigated to ${site.url}/form.`);

    const select = indexOf(form, '<select');
    const options = await run({ action: 'get_dropdown_options', index: select });
    expect(options.output).toContain('1: "Green" (value "g")');
    expect(options.image).toBeUndefined();
    const wrongOption = await run({
      action: 'select_dropdown_option',
      index: select,
      text: 'Purple',
    });
    expect(wrongOption.error).toContain(
      'has no option "Purple". Its options: "Red", "Green", "Blue"',
    );
    await run({ action: 'select_dropdown_option', index: select, text: 'Blue' });
    const typed = await run({
      action: 'input_text',
      index: indexOf(form, 'name="name"'),
      text: 'Ada',
    });
    expect(typed.output).toContain('value="Ada"');
    const notText = await run({ action: 'input_text', index: select, text: 'x' });
    expect(notText.error).toMatch(/is a dropdown: use select_dropdown_option/);
    const sent = await run({ action: 'send_keys', keys: 'Enter' });
    expect(sent.output).toContain(`Current URL: ${site.url}/submitted?name=Ada&colour=b`);

    const back = await run({ action: 'go_back' });
    expect(back.output).toContain(`Went back to ${site.url}/form`);

    const home = await run({ action: 'go_to_url', url: `${site.url}/` });
    const popup = await run({ action: 'click_element', index: indexOf(home, 'in a new tab') });
    expect(popup.output).toMatch(/opened a new tab \[(\d+)\], which is now the active tab/);
    expect(popup.output).toContain('Title: Second page');
    const newTabId = Number(/new tab \[(\d+)\]/.exec(popup.output)![1]);
    const switched = await run({ action: 'switch_tab', tab_id: 0 });
    expect(switched.output).toMatch(/\[0\] Start page \(.*\) \(active\)/);
    const opened = await run({ action: 'open_tab', url: `${site.url}/third?from=tab` });
    expect(opened.output).toContain('Title: Third page');
    expect(opened.output).toMatch(/Opened .* in a new tab \[\d+\], now the active tab/);
    const closed = await run({ action: 'close_tab', tab_id: newTabId });
    expect(closed.output).toContain(`Closed tab [${newTabId}]`);
    expect(closed.output).not.toContain(`[${newTabId}] Second page`);
    const missing = await run({ action: 'switch_tab', tab_id: 99 });
    expect(missing.error).toContain('There is no tab [99].');
  });

  it('reports a stale index or a bad URL as an error the model can act on, with the page state', async () => {
    const tool = createBrowserTool({
      session: newSession('errors'),
      settings,
      llm: new ScriptedLlm([]),
    });
    await tool.execute({ action: 'go_to_url', url: `${site.url}/second` }, context());
    const stale = await tool.execute({ action: 'click_element', index: 42 }, context());
    expect(stale.error).toContain('There is no element [42] on the current page');
    expect(stale.error).toContain('Title: Second page');
    const file = await tool.execute({ action: 'go_to_url', url: 'file:///etc/passwd' }, context());
    expect(file.error).toContain('Only http:// and https:// addresses can be opened');
    const keys = await tool.execute({ action: 'send_keys', keys: 'NoSuchKey' }, context());
    expect(keys.error).toMatch(/Could not press "NoSuchKey"/);
  });

  it("extract_content asks the agent's model with the page text, capped at max_content_length", async () => {
    const events: RunEventPayload[] = [];
    const llm = new ScriptedLlm(() => ({ content: 'the code is on the page' }));
    const tool = createBrowserTool({
      session: newSession('extract'),
      settings: { ...settings, max_content_length: 100 },
      llm,
    });
    await tool.execute({ action: 'go_to_url', url: `${site.url}/` }, context());
    const result = await tool.execute(
      { action: 'extract_content', goal: 'the secret code' },
      context({ emit: (e) => events.push(e) }),
    );
    expect(result.output).toMatch(
      /^Extracted from .*\(from the first 100 characters of the page; extract_content with from_char=100 reads on\):\nthe code is on the page$/,
    );
    expect(result.image).toBeUndefined();
    const request = llm.requests[0]!;
    expect(request.tools).toBeUndefined();
    const prompt = request.messages[1]!.content!;
    expect(prompt).toContain('Goal: the secret code');
    expect(prompt).toContain(site.secret);
    expect(prompt).toMatch(/first 100 of \d+ characters/);
    expect(events.map((e) => e.type)).toEqual(['llm.requested', 'llm.responded']);
  });

  it('another run of the session can browse while extract_content waits for the model; a model failure is a tool error', async () => {
    const session = newSession('extract-lock');
    const slowModel = new ScriptedLlm([{ content: 'slow answer', delayMs: 1500 }]);
    const extractor = createBrowserTool({ session, settings, llm: slowModel });
    const other = createBrowserTool({ session, settings, llm: new ScriptedLlm([]) });
    await other.execute({ action: 'go_to_url', url: `${site.url}/` }, context());
    const started = performance.now();
    const extraction = extractor.execute({ action: 'extract_content', goal: 'code' }, context());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const browsed = await other.execute({ action: 'wait', seconds: 0 }, context());
    const browsedAfter = performance.now() - started;
    expect(browsed.output).toContain('Title: Start page');
    expect((await extraction).output).toMatch(/slow answer$/);
    expect(browsedAfter).toBeLessThan(performance.now() - started - 500);

    const broken = createBrowserTool({ session, settings, llm: new ScriptedLlm([]) });
    const failed = await broken.execute({ action: 'extract_content', goal: 'code' }, context());
    expect(failed.error).toMatch(/^extract_content failed: ScriptedLlm: the script has 0 replies/);
  });

  it('a wait is cancelled promptly when the run stops', async () => {
    const tool = createBrowserTool({
      session: newSession('cancel'),
      settings,
      llm: new ScriptedLlm([]),
    });
    await tool.execute({ action: 'go_to_url', url: `${site.url}/` }, context());
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 200);
    await expect(
      tool.execute({ action: 'wait', seconds: 30 }, context({ signal: controller.signal })),
    ).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('fixes openmanus 7.2 item 8 for the browser: each session has its own browser, closed with the session', async () => {
    const a = newSession('browser-a');
    const b = newSession('browser-b');
    const toolA = createBrowserTool({ session: a, settings, llm: new ScriptedLlm([]) });
    const toolB = createBrowserTool({ session: b, settings, llm: new ScriptedLlm([]) });
    await toolA.execute({ action: 'go_to_url', url: `${site.url}/second` }, context());
    await toolB.execute({ action: 'go_to_url', url: `${site.url}/form` }, context());
    const browserA = await a.use(BROWSER_RESOURCE_KEY, () =>
      Promise.reject(new Error('not started')),
    );
    const browserB = await b.use(BROWSER_RESOURCE_KEY, () =>
      Promise.reject(new Error('not started')),
    );
    expect(browserA).toBeInstanceOf(BrowserSession);
    expect(browserA).not.toBe(browserB);

    // A second tool (another agent instance) in session A sees A's page, not B's.
    const again = createBrowserTool({ session: a, settings, llm: new ScriptedLlm([]) });
    const stateA = await again.execute({ action: 'wait', seconds: 0 }, context());
    expect(stateA.output).toContain(`Current URL: ${site.url}/second`);

    await a.close();
    expect((browserA as BrowserSession).alive).toBe(false);
    expect((browserB as BrowserSession).alive).toBe(true);
    const stateB = await toolB.execute({ action: 'wait', seconds: 0 }, context());
    expect(stateB.output).toContain(`Current URL: ${site.url}/form`);
  });

  it('starts a new browser after Chromium crashed, and says the old pages are gone', async () => {
    const session = newSession('crash');
    const tool = createBrowserTool({ session, settings, llm: new ScriptedLlm([]) });
    await tool.execute({ action: 'go_to_url', url: `${site.url}/second` }, context());
    const before = (await session.use(BROWSER_RESOURCE_KEY, () =>
      Promise.reject(new Error('not started')),
    )) as BrowserSession;
    // Kill the Chromium this test process started (by pid), as a crash would.
    const pids = chromiumChildren();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await expect.poll(() => before.alive, { timeout: 10_000 }).toBe(false);
    const result = await tool.execute({ action: 'go_to_url', url: `${site.url}/` }, context());
    expect(result.error).toBeUndefined();
    expect(result.output).toContain('The browser had stopped unexpectedly and was restarted');
    expect(result.output).toContain('Title: Start page');
  });

  it('says which path is wrong when the configured browser binary does not exist', async () => {
    const tool = createBrowserTool({
      session: newSession('missing'),
      settings: { ...settings, executable_path: '/nowhere/chromium' },
      llm: new ScriptedLlm([]),
    });
    const result = await tool.execute({ action: 'go_to_url', url: `${site.url}/` }, context());
    expect(result.error).toMatch(
      /\/nowhere\/chromium \(from \[browser\] executable_path in config\.toml\) does not exist/,
    );
  });
});
