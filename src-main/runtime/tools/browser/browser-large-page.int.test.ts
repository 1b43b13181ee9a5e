/**
 * The browser tool on a large page (issue 16 item 2): 4,000 links, like the Python docs'
 * genindex-all.html. Through the loop's own tool execution with the default
 * `max_observe`, so the observation is exactly what the model reads: the listed elements
 * are those in and near the visible area wherever the page is scrolled, an index stays
 * the same while the page does not change (an element far down is clicked by the number
 * it was given, after scrolling away), and the cap never cuts the element list.
 * Also: `headless = false` on a machine with no display falls back to headless.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCall } from '@shared/domain/message';
import { ScriptedLlm } from '../../llm/scripted-llm';
import { executeToolCall, type ToolCallOutcome } from '../../loop/tool-execution';
import { Session } from '../../session/session';
import { ToolRegistry } from '../tool-registry';
import { createBrowserTool, type BrowserToolArgs } from './browser-tool';
import { probeChromium } from './testing/chromium-env';
import {
  BIG_PAGE_LINKS,
  LONG_PAGE_SECTIONS,
  startTestSite,
  type TestSite,
} from './testing/test-site';

const chromium = probeChromium();
const MAX_OBSERVE = 10_000; // the agents' default

interface Listed {
  index: number;
  entry: number;
  where: 'visible' | 'above' | 'below';
}

/** The entries the observation lists: their index, entry number and position. */
function listed(observation: string): Listed[] {
  return [...observation.matchAll(/^\[(\d+)\]<a [^>]*>Entry (\d+) of the index<\/a>(.*)$/gm)].map(
    (m) => ({
      index: Number(m[1]),
      entry: Number(m[2]),
      where: m[3]!.includes('above') ? 'above' : m[3]!.includes('below') ? 'below' : 'visible',
    }),
  );
}

describe.skipIf(!chromium.available)('browser tool on a large page (real Chromium)', () => {
  let site: TestSite;
  const sessions: Session[] = [];
  const workspace = mkdtempSync(join(tmpdir(), 'wb-bigpage-'));
  let calls = 0;

  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await Promise.allSettled(sessions.map((s) => s.close()));
    await site.close();
  });

  function browserIn(id: string, headless = true) {
    const session = new Session(id, workspace);
    sessions.push(session);
    const tool = createBrowserTool({
      session,
      settings: { headless, max_content_length: 2000, keep_screenshots: 0 },
      llm: new ScriptedLlm([]),
    });
    const tools = new ToolRegistry([tool]);
    return async (args: BrowserToolArgs): Promise<ToolCallOutcome> => {
      const call: ToolCall = {
        id: `call_${++calls}`,
        type: 'function',
        function: { name: 'browser', arguments: JSON.stringify(args) },
      };
      return executeToolCall(call, {
        tools,
        agent: 'browser',
        runId: 'run-big',
        step: calls,
        signal: new AbortController().signal,
        emit: () => undefined,
        maxObserve: MAX_OBSERVE,
      });
    };
  }

  it('lists what is on screen wherever the page is scrolled, keeps indexes, and clicks one far down by its number', async () => {
    const browse = browserIn('big');
    const top = await browse({ action: 'go_to_url', url: `${site.url}/big` });
    expect(top.ok, top.observation).toBe(true);
    const atTop = listed(top.observation);
    expect(atTop.length).toBeGreaterThan(10);
    expect(atTop.filter((e) => e.where === 'visible').map((e) => e.entry)).toContain(0);
    // the list is whole and ends with where the rest is, never with the cap's marker
    expect(top.observation).not.toMatch(/characters cut/);
    expect(top.observation.length).toBeLessThanOrEqual(MAX_OBSERVE);
    expect(top.observation).toMatch(
      /\d+ more interactive elements not listed \(0 above, \d+ below\)/,
    );

    const down = await browse({ action: 'scroll_down', scroll_amount: 20_000 });
    expect(down.observation).toContain('Scroll: 20000 pixels above');
    const afterScroll = listed(down.observation);
    const visible = afterScroll.filter((e) => e.where === 'visible');
    // before: the first 150 links of the page, of which 1 was on screen after 20,000 px
    expect(visible.length).toBeGreaterThan(10);
    expect(Math.min(...visible.map((e) => e.entry))).toBeGreaterThan(500);
    expect(afterScroll.every((e) => e.entry > 400)).toBe(true);
    expect(down.observation).not.toMatch(/characters cut/);
    expect(down.observation).toMatch(/not listed \(\d+ above, \d+ below\)/);
    // indexes are page order numbers given once: entry N is element N + 0 here
    const target = visible[Math.floor(visible.length / 2)]!;
    expect(target.index).toBe(atTop.find((e) => e.entry === 0)!.index + target.entry);

    // scroll away: the number the model was given still names the same link
    const back = await browse({ action: 'scroll_up', scroll_amount: 20_000 });
    expect(listed(back.observation).some((e) => e.entry === target.entry)).toBe(false);
    expect(listed(back.observation).find((e) => e.entry === 0)?.index).toBe(
      atTop.find((e) => e.entry === 0)!.index,
    );
    const clicked = await browse({ action: 'click_element', index: target.index });
    expect(clicked.ok, clicked.observation).toBe(true);
    expect(clicked.observation).toContain(
      `The page navigated to ${site.url}/entry?n=${target.entry}`,
    );
    expect(site.hits).toContain('/entry');
    expect(BIG_PAGE_LINKS).toBeGreaterThan(target.entry);
  });

  it('falls back to headless with a warning when headless = false and there is no display', async () => {
    const saved = { DISPLAY: process.env['DISPLAY'], WAYLAND: process.env['WAYLAND_DISPLAY'] };
    delete process.env['DISPLAY'];
    delete process.env['WAYLAND_DISPLAY'];
    try {
      const browse = browserIn('no-display', false);
      const opened = await browse({ action: 'go_to_url', url: `${site.url}/` });
      expect(opened.ok, opened.observation).toBe(true);
      expect(opened.observation).toMatch(/no display .* so the browser runs headless/);
      const again = await browse({ action: 'scroll_down' });
      expect(again.observation).not.toMatch(/runs headless/); // said once
    } finally {
      if (saved.DISPLAY !== undefined) process.env['DISPLAY'] = saved.DISPLAY;
      if (saved.WAYLAND !== undefined) process.env['WAYLAND_DISPLAY'] = saved.WAYLAND;
    }
  });
});

describe.skipIf(!chromium.available)(
  'extract_content far down a long page (issue 26 item 12)',
  () => {
    let site: TestSite;
    const sessions: Session[] = [];
    beforeAll(async () => {
      site = await startTestSite();
    });
    afterAll(async () => {
      await Promise.allSettled(sessions.map((s) => s.close()));
      await site.close();
    });

    it('reads from where the page is scrolled to, 150,000 px down, and pages on with from_char', async () => {
      const session = new Session('extract-far', mkdtempSync(join(tmpdir(), 'wb-extract-')));
      sessions.push(session);
      const llm = new ScriptedLlm(() => ({ content: 'found it' }));
      const tool = createBrowserTool({
        session,
        settings: { headless: true, max_content_length: 2000, keep_screenshots: 1 },
        llm,
      });
      const context = {
        signal: new AbortController().signal,
        runId: 'run-extract',
        agent: 'browser',
        step: 1,
        toolCallId: 'call_1',
        emit: () => undefined,
      };
      await tool.execute({ action: 'go_to_url', url: `${site.url}/sections` }, context);
      const last = `Section ${LONG_PAGE_SECTIONS}`;
      const scrolled = await tool.execute({ action: 'scroll_to_text', text: last }, context);
      expect(scrolled.output).toMatch(/scroll|Scrolled/i);

      const extracted = await tool.execute(
        { action: 'extract_content', goal: 'the answer of the last section' },
        context,
      );
      const prompt = llm.requests[0]!.messages[1]!.content!;
      expect(prompt).toContain(`The answer of the last section is ${site.secret}.`);
      expect(prompt).not.toContain('Section 1\n');
      expect(prompt).toMatch(/characters \d+ to \d+ of \d+, from where the page is scrolled to/);
      expect(extracted.output).toMatch(
        /^Extracted from .*\/sections \(from characters \d+ to \d+ of \d+\):\nfound it$/,
      );

      // back at the top, from_char pages through the text: the second part starts where the
      // first one said
      await tool.execute({ action: 'go_to_url', url: `${site.url}/sections` }, context);
      const first = await tool.execute({ action: 'extract_content', goal: 'section 1' }, context);
      const next = Number(/from_char=(\d+) reads on/.exec(first.output ?? '')?.[1]);
      expect(next).toBe(2000);
      await tool.execute({ action: 'extract_content', goal: 'more', from_char: next }, context);
      const paged = llm.requests[2]!.messages[1]!.content!;
      expect(paged).toMatch(/characters 2001 to 4000 of \d+, from from_char/);
      expect(paged).not.toContain('Section 1\n');
    }, 60_000);
  },
);
