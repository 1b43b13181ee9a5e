/**
 * extract_content: asks the agent's own model to pull what the goal needs out of the
 * page's text (OpenManus did the same with a markdown copy of the page). The text is
 * capped at `[browser] max_content_length` and the model is told when it was cut.
 */
import type { Page } from 'playwright-core';
import type { RunEventPayload } from '@shared/events';
import type { LlmClient } from '../../llm/llm-client';
import { eventMessagesOf, RequestRecorder } from '../../llm/request-record';
import { PAGE_SCRIPTS, callScript } from './page-script';

export const EXTRACT_SYSTEM_PROMPT =
  'You extract information from one web page for another agent. Answer the goal using only ' +
  'the page text you are given: quote values exactly, keep it short, and say plainly when the ' +
  'page does not contain what the goal asks for. Do not invent links or values.';

export interface ExtractContext {
  llm: LlmClient;
  maxContentLength: number;
  signal: AbortSignal;
  agent: string;
  step: number;
  emit: (event: RunEventPayload) => void;
}

export interface PageText {
  url: string;
  title: string;
  text: string;
  /** where the visible area begins in `text` (0 when the page is not scrolled) */
  viewStart?: number;
  /** the model's `from_char`: where to start reading instead */
  fromChar?: number;
}

/** Never in a page: marks the viewport's first text for a moment (page-script.ts). */
const VIEW_MARKER = '\u2063wb-view-start\u2063';

/** Reads the page (inside the browser's lock); the model is asked afterwards, outside it. */
export async function readPageText(page: Page): Promise<PageText> {
  const { text, viewStart } = (await page.evaluate(
    callScript(PAGE_SCRIPTS.pageText, VIEW_MARKER),
  )) as { text: string; viewStart: number };
  return { url: page.url(), title: await page.title(), text, viewStart };
}

/**
 * The part of the page text the model reads: max_content_length characters from where the
 * page is scrolled to, or from `from_char` (issue 26 item 12: it read only the first 2,000
 * characters, even after scrolling to a section far down). Near the end the window moves
 * back so it stays full.
 */
export function textWindow(page: PageText, cap: number): { start: number; end: number } {
  const total = page.text.length;
  const wanted = page.fromChar ?? page.viewStart ?? 0;
  const start = Math.max(0, Math.min(wanted, total - cap));
  return { start, end: Math.min(total, start + cap) };
}

export async function extractContent(
  page: PageText,
  goal: string,
  ctx: ExtractContext,
): Promise<string> {
  const { text } = page;
  const { start, end } = textWindow(page, ctx.maxContentLength);
  const capped = text.slice(start, end);
  const isWhole = start === 0 && end === text.length;
  const from =
    page.fromChar !== undefined ? 'from from_char' : 'from where the page is scrolled to';
  const cutNote = isWhole
    ? 'Page text:'
    : start === 0
      ? `Page text (first ${capped.length} of ${text.length} characters; the rest was cut):`
      : `Page text (characters ${start + 1} to ${end} of ${text.length}, ${from}; the rest was cut):`;
  const messages = [
    { role: 'system' as const, content: EXTRACT_SYSTEM_PROMPT },
    {
      role: 'user' as const,
      content: `Goal: ${goal}\n\nPage URL: ${page.url}\nPage title: ${page.title}\n${cutNote}\n${capped}`,
    },
  ];
  const started = performance.now();
  // The extraction is a model call of its own: the timeline shows it like any other.
  ctx.emit({
    type: 'llm.requested',
    agent: ctx.agent,
    step: ctx.step,
    model: ctx.llm.model,
    messageCount: messages.length,
    inputTokens: 0,
    ...new RequestRecorder().fields({ messages }, ctx.llm),
    // built here, not from a memory: recorded as sent
    messages: eventMessagesOf(messages),
  });
  // A call of the agent's profile like its own: the gate's waits and the retries show.
  const response = await ctx.llm.complete(
    { messages },
    {
      signal: ctx.signal,
      onRetry: (notice) =>
        ctx.emit({ type: 'llm.retried', agent: ctx.agent, step: ctx.step, ...notice }),
      onQueued: (notice) =>
        ctx.emit({
          type: 'llm.queued',
          agent: ctx.agent,
          step: ctx.step,
          model: ctx.llm.model,
          ...notice,
        }),
    },
  );
  ctx.emit({
    type: 'llm.responded',
    agent: ctx.agent,
    step: ctx.step,
    model: response.model,
    content: response.content,
    toolCalls: response.toolCalls,
    usage: response.usage,
    durationMs: Math.round(performance.now() - started),
    finishReason: response.finishReason,
    ...(response.usageSource ? { usageSource: response.usageSource } : {}),
    ...(response.queuedMs ? { queuedMs: response.queuedMs } : {}),
  });
  const answer = response.content?.trim();
  if (!answer) throw new Error('the model returned no text for the extraction');
  const readOn = end < text.length ? `; extract_content with from_char=${end} reads on` : '';
  const truncated = isWhole
    ? ''
    : start === 0
      ? ` (from the first ${capped.length} characters of the page${readOn})`
      : ` (from characters ${start + 1} to ${end} of ${text.length}${readOn})`;
  return `Extracted from ${page.url}${truncated}:\n${answer}`;
}
