/**
 * What the model is told about the browser after each action: URL, title, the open
 * tabs, how far the page is scrolled, and the indexed interactive elements in and near
 * the visible area that it can click or type into (OpenManus's browser context, with
 * the pixels above/below it lost).
 */
import type { Page } from 'playwright-core';
import { INDEX_ELEMENTS } from './index-script';
import { callScript } from './page-script';

export interface PageElement {
  /** stable while the page does not change (see index-script.ts) */
  index: number;
  tag: string;
  text: string;
  attributes: Record<string, string>;
  inViewport: boolean;
  /** where it is relative to the visible area */
  position?: 'above' | 'visible' | 'below';
  /** pixels between it and the visible area (0 inside it) */
  distance?: number;
}

export interface ScrollInfo {
  above: number;
  below: number;
  viewportHeight: number;
}

export interface TabInfo {
  id: number;
  title: string;
  url: string;
  active: boolean;
}

export interface PageState {
  url: string;
  title: string;
  tabs: TabInfo[];
  /** interactive elements in and near the visible area, in page order */
  elements: PageElement[];
  /** interactive elements on the page, listed or not */
  totalElements: number;
  /** interactive elements not listed, above and below the listed ones */
  unlisted?: { above: number; below: number };
  scroll: ScrollInfo;
}

/** Elements listed at most (the closest to the visible area). */
export const MAX_LISTED_ELEMENTS = 150;
/** How far above and below the visible area elements are listed, in viewport heights. */
const NEAR_VIEWPORTS = 1;

interface IndexResult {
  elements: PageElement[];
  total: number;
  unlisted: { above: number; below: number };
  scroll: ScrollInfo;
}

/** Indexes the page (keeping earlier numbers) and reads its state around the viewport. */
export async function capturePageState(
  page: Page,
  tabs: TabInfo[],
  maxElements = MAX_LISTED_ELEMENTS,
): Promise<PageState> {
  const viewportHeight = page.viewportSize()?.height ?? 800;
  const indexed = (await page.evaluate(
    callScript(INDEX_ELEMENTS, {
      maxElements,
      nearPx: Math.round(viewportHeight * NEAR_VIEWPORTS),
    }),
  )) as IndexResult;
  return {
    url: page.url(),
    title: await page.title(),
    tabs,
    elements: indexed.elements,
    totalElements: indexed.total,
    unlisted: indexed.unlisted,
    scroll: indexed.scroll,
  };
}

/**
 * The state as the model reads it. With a `budget` (characters), the element list is
 * shortened from the elements farthest from the visible area until the whole text fits,
 * so the observation cap (`max_observe`) never cuts the list in the middle.
 */
export function formatPageState(state: PageState, budget = Number.POSITIVE_INFINITY): string {
  const header = [
    `Current URL: ${state.url}`,
    `Title: ${state.title || '(no title)'}`,
    `Tabs: ${state.tabs.map(formatTab).join(' | ')}`,
    `Scroll: ${state.scroll.above} pixels above and ${state.scroll.below} pixels below the visible area (viewport ${state.scroll.viewportHeight} pixels high)`,
  ];
  if (state.elements.length === 0 && state.totalElements === 0) {
    return [...header, 'Interactive elements: none found on this page.'].join('\n');
  }
  const unlisted = { ...(state.unlisted ?? { above: 0, below: 0 }) };
  const lines = new Map(state.elements.map((e) => [e, formatElement(e)]));
  const fixed = header.join('\n').length + LIST_TITLE.length + 200;
  let used = fixed + [...lines.values()].reduce((n, l) => n + l.length + 1, 0);
  if (used > budget) {
    const farthestFirst = [...state.elements].sort((a, b) => (b.distance ?? 0) - (a.distance ?? 0));
    for (const element of farthestFirst) {
      if (used <= budget) break;
      used -= lines.get(element)!.length + 1;
      lines.delete(element);
      if (element.position === 'above') unlisted.above++;
      else unlisted.below++;
    }
  }
  const out = [...header];
  if (lines.size === 0) out.push('Interactive elements: none in or near the visible area.');
  else out.push(LIST_TITLE, ...lines.values());
  const hidden = unlisted.above + unlisted.below;
  if (hidden > 0) {
    out.push(
      `... ${hidden} more interactive elements not listed (${unlisted.above} above, ${unlisted.below} below): scroll to list them, or use extract_content.`,
    );
  }
  return out.join('\n');
}

const LIST_TITLE =
  'Interactive elements in and near the visible area (use the number in brackets as `index`; numbers stay the same while the page does not change):';

function formatTab(tab: TabInfo): string {
  return `[${tab.id}] ${tab.title || '(no title)'} (${tab.url})${tab.active ? ' (active)' : ''}`;
}

export function formatElement(element: PageElement): string {
  const attrs = Object.entries(element.attributes)
    .map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`)
    .join('');
  const body = element.tag === 'input' ? '' : `${element.text}</${element.tag}>`;
  const where = element.inViewport
    ? ''
    : element.position && element.position !== 'visible'
      ? ` (off-screen, ${element.position})`
      : ' (off-screen)';
  return `[${element.index}]<${element.tag}${attrs}>${body}${where}`;
}
