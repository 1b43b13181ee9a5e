/**
 * What the model is told about the browser after each action: URL, title, the open
 * tabs, how far the page is scrolled, and the indexed interactive elements it can click
 * or type into (OpenManus's browser context, with the pixels above/below it lost).
 */
import type { Page } from 'playwright-core';
import { PAGE_SCRIPTS, callScript } from './page-script';

export interface PageElement {
  index: number;
  tag: string;
  text: string;
  attributes: Record<string, string>;
  inViewport: boolean;
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
  elements: PageElement[];
  /** interactive elements on the page, including those beyond the listing cap */
  totalElements: number;
  scroll: ScrollInfo;
}

export const MAX_LISTED_ELEMENTS = 150;

interface IndexResult {
  elements: PageElement[];
  total: number;
  scroll: ScrollInfo;
}

/** Indexes the page (renumbering its elements) and reads its state. */
export async function capturePageState(
  page: Page,
  tabs: TabInfo[],
  maxElements = MAX_LISTED_ELEMENTS,
): Promise<PageState> {
  const indexed = (await page.evaluate(
    callScript(PAGE_SCRIPTS.indexElements, { maxElements }),
  )) as IndexResult;
  return {
    url: page.url(),
    title: await page.title(),
    tabs,
    elements: indexed.elements,
    totalElements: indexed.total,
    scroll: indexed.scroll,
  };
}

export function formatPageState(state: PageState): string {
  const lines = [
    `Current URL: ${state.url}`,
    `Title: ${state.title || '(no title)'}`,
    `Tabs: ${state.tabs.map(formatTab).join(' | ')}`,
    `Scroll: ${state.scroll.above} pixels above and ${state.scroll.below} pixels below the visible area (viewport ${state.scroll.viewportHeight} pixels high)`,
  ];
  if (state.elements.length === 0) {
    lines.push('Interactive elements: none found on this page.');
  } else {
    lines.push('Interactive elements (use the number in brackets as `index`):');
    for (const element of state.elements) lines.push(formatElement(element));
    const hidden = state.totalElements - state.elements.length;
    if (hidden > 0) {
      lines.push(`... and ${hidden} more elements not listed; scroll or use extract_content.`);
    }
  }
  return lines.join('\n');
}

function formatTab(tab: TabInfo): string {
  return `[${tab.id}] ${tab.title || '(no title)'} (${tab.url})${tab.active ? ' (active)' : ''}`;
}

export function formatElement(element: PageElement): string {
  const attrs = Object.entries(element.attributes)
    .map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`)
    .join('');
  const body = element.tag === 'input' ? '' : `${element.text}</${element.tag}>`;
  const where = element.inViewport ? '' : ' (off-screen)';
  return `[${element.index}]<${element.tag}${attrs}>${body}${where}`;
}
