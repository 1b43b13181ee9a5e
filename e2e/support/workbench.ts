/** Helpers the web specs share: open the UI, start runs, read the timeline and the model server. */
import { expect, type Page } from '@playwright/test';
import { E2E_URL, SCRIPTED_PORT } from './server';

export async function openWorkbench(page: Page): Promise<void> {
  await page.goto(E2E_URL);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
}

export async function startRun(page: Page, task: string, agent = 'manus'): Promise<void> {
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill(task);
  await page.getByTestId('agent-select').selectOption(agent);
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-model')).toBeVisible();
}

export async function waitForOutcome(
  page: Page,
  outcome = 'finished',
  timeout = 60_000,
): Promise<void> {
  await expect(page.getByTestId('run-outcome')).toHaveText(outcome, { timeout });
}

export interface RowSignature {
  id: string;
  testId: string | null;
  attrs: Record<string, string>;
  text: string;
}

/**
 * Every row of the (virtualized) timeline, in order: scrolls it from top to bottom and
 * records each row's test id, data attributes and text.
 */
export async function collectTimeline(page: Page): Promise<RowSignature[]> {
  return page.getByTestId('timeline').evaluate(async (list) => {
    const rows = new Map<
      number,
      { id: string; testId: string | null; attrs: Record<string, string>; text: string }
    >();
    // (this runs in the page; the Node typings of this project have no DOM lib)
    const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): number })
      .requestAnimationFrame;
    const frame = () => new Promise<void>((r) => raf(() => raf(r)));
    list.scrollTop = 0;
    await frame();
    for (let guard = 0; guard < 500; guard++) {
      for (const el of list.querySelectorAll('[data-item-id]')) {
        const id = el.getAttribute('data-item-id') ?? '';
        const attrs: Record<string, string> = {};
        for (const a of el.getAttributeNames()) {
          if (a.startsWith('data-') && a !== 'data-testid') attrs[a] = el.getAttribute(a) ?? '';
        }
        attrs['aria-selected'] = el.getAttribute('aria-selected') ?? '';
        rows.set(Number(id), {
          id,
          testId: el.getAttribute('data-testid'),
          attrs,
          text: (el.textContent ?? '').replace(/\s+/g, ' ').trim(),
        });
      }
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) break;
      list.scrollTop += Math.max(100, list.clientHeight * 0.7);
      await frame();
    }
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
  });
}

export interface ScriptedRequest {
  index: number;
  model: string;
  messages: { role: string; content?: unknown }[];
}

/** What the scripted model server received, oldest first. */
export async function scriptedRequests(): Promise<ScriptedRequest[]> {
  const response = await fetch(`http://127.0.0.1:${SCRIPTED_PORT}/_scripted/requests`);
  return (await response.json()) as ScriptedRequest[];
}

/** The requests of one run: those whose first user message is its task. */
export function requestsForTask(requests: ScriptedRequest[], task: string): ScriptedRequest[] {
  return requests.filter((r) => r.messages.find((m) => m.role === 'user')?.content === task);
}
