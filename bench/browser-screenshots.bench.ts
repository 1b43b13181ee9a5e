/**
 * The browser tool's cost and the memory its screenshots take.
 *
 * 1. Time per browser action (go_to_url on a local page) as the model gets it: the page
 *    state with indexed elements, with and without the JPEG screenshot. Baseline in the
 *    same run: a bare Playwright `page.goto` of the same pages in the same browser.
 * 2. Screenshot bytes held in an agent's memory, and sent in its last request, after 30
 *    browsing steps: keeping the last 3 (ours) against keeping every one (what the
 *    original did: openmanus.md 7.2 item 4). Same run, same pages.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { Session } from '../src-main/runtime/session/session';
import { createTerminateTool } from '../src-main/runtime/tools/terminate';
import type { ToolContext } from '../src-main/runtime/tools/tool';
import { useBrowser } from '../src-main/runtime/tools/browser/browser-session';
import { createBrowserTool } from '../src-main/runtime/tools/browser/browser-tool';
import { VisualToolAgent } from '../src-main/runtime/loop/visual-tool-agent';
import { locateChromium } from '../src-main/runtime/tools/browser/chromium';
import { startTestSite } from '../src-main/runtime/tools/browser/testing/test-site';
import { report, type BenchResult } from './report';

const PAGES = ['/', '/second', '/form', '/third?from=bench'];
const ROUNDS = 24;
const AGENT_STEPS = 30;

const context: ToolContext = {
  signal: new AbortController().signal,
  runId: 'bench',
  agent: 'browser',
  step: 1,
  toolCallId: 'bench',
  emit: () => undefined,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timeEach(count: number, action: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await action(i);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Runs a browser agent for AGENT_STEPS navigations; returns screenshot bytes kept and sent. */
async function screenshotMemory(session: Session, siteUrl: string, keep: number) {
  let lastRequestBytes = 0;
  const llm = new ScriptedLlm((request, index) => {
    lastRequestBytes = request.messages.reduce((n, m) => n + (m.image?.data.length ?? 0), 0);
    if (index >= AGENT_STEPS)
      return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    const url = `${siteUrl}${PAGES[index % PAGES.length]}`;
    return { toolCalls: [{ name: 'browser', args: { action: 'go_to_url', url } }] };
  });
  const settings = { headless: true, max_content_length: 2000, keep_screenshots: 3 };
  const agent = VisualToolAgent.create(
    { name: 'browser', maxSteps: AGENT_STEPS + 1, maxMessages: 1000, keepImages: keep },
    { llm, tools: [createBrowserTool({ session, settings, llm }), createTerminateTool()] },
    { emit: () => undefined, runId: 'bench' },
  );
  const result = await agent.run('browse');
  if (result.outcome !== 'finished') throw new Error(`bench run ended with ${result.outcome}`);
  const kept = agent.memory.messages.reduce((n, m) => n + (m.image?.data.length ?? 0), 0);
  return { kept, lastRequestBytes };
}

export async function browserScreenshotsBench(): Promise<BenchResult> {
  const name = 'browser tool: time per action and screenshot memory (local pages, real Chromium)';
  if (!locateChromium({}).path) {
    console.log(`\n## ${name}\n  skipped: no Chromium found (set WORKBENCH_CHROMIUM)`);
    return { name, figures: [] };
  }
  const site = await startTestSite();
  const session = new Session('bench-browser', mkdtempSync(join(tmpdir(), 'wb-bench-')));
  try {
    const llm = new ScriptedLlm([]);
    const base = { headless: true, max_content_length: 2000 };
    const withShots = createBrowserTool({
      session,
      settings: { ...base, keep_screenshots: 3 },
      llm,
    });
    const stateOnly = createBrowserTool({
      session,
      settings: { ...base, keep_screenshots: 0 },
      llm,
    });
    const url = (i: number) => `${site.url}${PAGES[i % PAGES.length]}`;
    await withShots.execute({ action: 'go_to_url', url: url(0) }, context); // start the browser
    const page = await (await useBrowser(session, base)).browser.activePage();

    await timeEach(8, (i) => page.goto(url(i), { waitUntil: 'load' })); // warm up
    const bare = await timeEach(ROUNDS, (i) => page.goto(url(i), { waitUntil: 'load' }));
    const state = await timeEach(ROUNDS, (i) =>
      stateOnly.execute({ action: 'go_to_url', url: url(i) }, context),
    );
    const full = await timeEach(ROUNDS, (i) =>
      withShots.execute({ action: 'go_to_url', url: url(i) }, context),
    );

    const ours = await screenshotMemory(session, site.url, 3);
    const original = await screenshotMemory(session, site.url, Number.MAX_SAFE_INTEGER);
    const kb = (bytes: number) => bytes / 1024;
    return report(name, [
      { label: 'bare page.goto (baseline)', value: bare, unit: 'ms', note: `median of ${ROUNDS}` },
      {
        label: 'go_to_url + page state',
        value: state,
        unit: 'ms',
        note: `${(state / bare).toFixed(2)}x baseline`,
      },
      {
        label: 'go_to_url + page state + screenshot',
        value: full,
        unit: 'ms',
        note: `${(full / bare).toFixed(2)}x baseline`,
      },
      {
        label: `screenshots in memory after ${AGENT_STEPS} steps, keep 3`,
        value: kb(ours.kept),
        unit: 'KiB',
        note: `${(ours.kept / original.kept).toFixed(3)}x keeping all`,
      },
      {
        label: `screenshots in memory after ${AGENT_STEPS} steps, keep all (original)`,
        value: kb(original.kept),
        unit: 'KiB',
      },
      {
        label: 'screenshot bytes in the last request, keep 3',
        value: kb(ours.lastRequestBytes),
        unit: 'KiB',
        note: `${(ours.lastRequestBytes / original.lastRequestBytes).toFixed(3)}x keeping all (${kb(original.lastRequestBytes).toFixed(0)} KiB)`,
      },
    ]);
  } finally {
    await session.close();
    await site.close();
  }
}
