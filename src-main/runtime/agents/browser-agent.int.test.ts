/**
 * End to end, the way the app runs it: a runtime built from a config file, a run of the
 * `browser` agent started through the RunManager, a scripted model that decides only from
 * what the agent sends it (the page state, the extracted text), the real browser tool, a
 * real Chromium and a local site. The model reads a value from the first page and clicks
 * through two more pages.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import type { RunEvent } from '@shared/events';
import type { ChatRequest } from '../llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import type { BrowserSession } from '../tools/browser/browser-session';
import { BROWSER_RESOURCE_KEY } from '../tools/browser/browser-session';
import { IMAGE_REMOVED_NOTE } from '../tools/browser/tool-images';
import { probeChromium } from '../tools/browser/testing/chromium-env';
import { startTestSite, type TestSite } from '../tools/browser/testing/test-site';

const chromium = probeChromium();
const home = mkdtempSync(join(tmpdir(), 'wb-browser-agent-'));

/** The latest page state the agent showed the model. */
function latestState(messages: Message[]): string {
  const state = messages.findLast((m) => m.role === 'tool' && m.content?.includes('Current URL:'));
  return state?.content ?? '';
}

function indexIn(state: string, text: string): number {
  const line = state.split('\n').find((l) => /^\[\d+\]</.test(l) && l.includes(text));
  if (!line) throw new Error(`the model cannot find "${text}" in the page state:\n${state}`);
  return Number(/^\[(\d+)\]/.exec(line)![1]);
}

/**
 * A model that browses like a careful agent would: it only knows the site's address;
 * everything else it takes from the messages it is sent.
 */
function browsingModel(siteUrl: string) {
  /** what each request to the model carried: roles of messages with images, and the images */
  const sent: {
    imageRoles: string[];
    images: { mimeType: string; head: number[] }[];
    systemAt: number[];
    hasTools: boolean;
  }[] = [];
  const script = (request: ChatRequest): ScriptedReply => {
    const withImages = request.messages.filter((m) => m.image);
    sent.push({
      imageRoles: withImages.map((m) => m.role),
      images: withImages.map((m) => ({
        mimeType: m.image!.mimeType,
        head: [...Buffer.from(m.image!.data, 'base64').subarray(0, 3)],
      })),
      systemAt: request.messages.flatMap((m, i) => (m.role === 'system' ? [i] : [])),
      hasTools: request.tools !== undefined,
    });
    // extract_content's own request: no tools, the page text in the prompt.
    if (!request.tools) {
      const text = request.messages.at(-1)?.content ?? '';
      const code = /secret code is (\d+)/.exec(text)?.[1];
      return { content: code ? `The secret code is ${code}.` : 'The page has no secret code.' };
    }
    const lastTool = request.messages.findLast((m) => m.role === 'tool')?.content ?? '';
    const state = latestState(request.messages);
    if (!lastTool)
      return {
        toolCalls: [{ name: 'browser', args: { action: 'go_to_url', url: `${siteUrl}/` } }],
      };
    if (lastTool.includes('Extracted from')) {
      return {
        content: 'Got the code; now to the second page.',
        toolCalls: [
          {
            name: 'browser',
            args: { action: 'click_element', index: indexIn(state, 'Go to the second page') },
          },
        ],
      };
    }
    if (state.includes('Title: Start page')) {
      return {
        toolCalls: [
          { name: 'browser', args: { action: 'extract_content', goal: 'the secret code' } },
        ],
      };
    }
    if (state.includes('Title: Second page')) {
      return {
        toolCalls: [
          {
            name: 'browser',
            args: { action: 'click_element', index: indexIn(state, 'Continue to the third page') },
          },
        ],
      };
    }
    if (state.includes('Title: Third page')) {
      const extracted = request.messages.find((m) => m.content?.includes('Extracted from'));
      const code = /secret code is (\d+)/.exec(extracted?.content ?? '')?.[1] ?? 'unknown';
      return {
        content: `Reached the third page. The secret code is ${code}.`,
        toolCalls: [{ name: 'terminate', args: { status: 'success' } }],
      };
    }
    return { content: 'lost', toolCalls: [{ name: 'terminate', args: { status: 'failure' } }] };
  };
  return { llm: new ScriptedLlm(script), sent };
}

describe.skipIf(!chromium.available)('browser agent, end to end (real Chromium)', () => {
  let site: TestSite;
  let runtime: Runtime;
  let model: ReturnType<typeof browsingModel>;

  beforeAll(async () => {
    site = await startTestSite();
    model = browsingModel(site.url);
    const configFile = join(home, 'config.toml');
    writeFileSync(
      configFile,
      [
        '[llm]',
        'model = "scripted"',
        'api_key = "sk-test-browser"',
        '',
        '[browser]',
        'keep_screenshots = 2',
        '',
      ].join('\n'),
    );
    runtime = createRuntime({
      home,
      configFile,
      createLlm: () => model.llm,
      sessionId: 'browser-e2e',
      env: {},
    });
  });
  afterAll(async () => {
    await runtime?.dispose();
    await site?.close();
  });

  it('reads a value from the first page and clicks through two pages, then terminates', async () => {
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const handle = runtime.runs.start({
      agent: 'browser',
      task: `Find the secret code on ${site.url}/ and reach the third page.`,
    });
    const result = await handle.done;

    expect(result).toMatchObject({
      outcome: 'finished',
      state: 'FINISHED',
      terminateStatus: 'success',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    const final = events.findLast(
      (e) => e.type === 'memory.appended' && e.message.role === 'assistant',
    );
    expect(final?.type === 'memory.appended' && final.message.content).toBe(
      `Reached the third page. The secret code is ${site.secret}.`,
    );
    expect(site.hits).toEqual(expect.arrayContaining(['/', '/second', '/third']));
    expect(site.hits.indexOf('/third')).toBeGreaterThan(site.hits.indexOf('/second'));

    // The browser tool ran once per action, each answered with one tool.finished.
    const browserCalls = events.filter((e) => e.type === 'tool.finished' && e.name === 'browser');
    expect(browserCalls.map((e) => e.type === 'tool.finished' && e.ok)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(events.filter((e) => e.type === 'llm.responded')).toHaveLength(6); // 5 steps and the extraction

    // openmanus 7.2 item 4: screenshots only on user messages, JPEG bytes labelled
    // image/jpeg, and never more than the 2 kept (3 were taken).
    const agentRequests = model.sent.filter((s) => s.hasTools);
    expect(agentRequests.flatMap((s) => s.imageRoles).every((role) => role === 'user')).toBe(true);
    expect(agentRequests.map((s) => s.images.length)).toEqual([0, 1, 1, 2, 2]);
    for (const image of agentRequests.flatMap((s) => s.images)) {
      expect(image).toEqual({ mimeType: 'image/jpeg', head: [0xff, 0xd8, 0xff] });
    }
    const appended = events.flatMap((e) => (e.type === 'memory.appended' ? [e.message] : []));
    expect(appended.filter((m) => m.role === 'tool' && 'imageMimeType' in m)).toHaveLength(0);
    expect(appended.filter((m) => 'imageMimeType' in m)).toHaveLength(3);
    // issue 17: each screenshot is kept beside the history (the event names the file)
    for (const m of appended.filter((a) => a.imageMimeType)) {
      expect(m.image).toMatchObject({ mimeType: 'image/jpeg' });
      expect(m.image?.ref).toMatch(/^[0-9a-f]{64}\.jpg$/);
      expect(m.image?.width).toBeGreaterThan(0);
      const file = join(home, 'runs', `${handle.runId}.images`, m.image!.ref!);
      expect([...readFileSync(file).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
    const lastRequest = model.llm.requests.at(-1)!;
    expect(
      lastRequest.messages.filter((m) => m.content?.includes(IMAGE_REMOVED_NOTE)),
    ).toHaveLength(1);

    // openmanus 7.2 item 15: one system prompt, first, in every request; none injected later.
    for (const request of agentRequests) expect(request.systemAt).toEqual([0]);

    // The browser belongs to the session: open after the run, closed with the session.
    const session = runtime.services.sessions.get('browser-e2e')!;
    const browser = (await session.use(BROWSER_RESOURCE_KEY, () =>
      Promise.reject(new Error('no browser')),
    )) as BrowserSession;
    expect(browser.alive).toBe(true);
    await runtime.services.sessions.close('browser-e2e');
    expect(browser.alive).toBe(false);
  });
});
