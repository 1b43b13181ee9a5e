/**
 * Code that runs inside the page. It is kept as JavaScript source (not TypeScript
 * functions) because the main-process build has no DOM types, and so the page never sees
 * our bundler's helpers. Each script is an expression taking one JSON argument.
 */

/** The readable text of the page, for extract_content. */
const PAGE_TEXT = String.raw`() => {
  const body = document.body;
  const text = body ? (body.innerText || body.textContent || '') : (document.documentElement.textContent || '');
  return text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}`;

/** Options of a <select> element, in order. */
const SELECT_OPTIONS = String.raw`(selector) => {
  const el = document.querySelector(selector);
  if (!el) return { missing: true };
  if (el.tagName.toLowerCase() !== 'select') return { notSelect: el.tagName.toLowerCase() };
  return {
    options: Array.from(el.options).map((o, i) => ({ index: i, text: o.text.trim(), value: o.value, selected: o.selected })),
  };
}`;

const TAG_NAME = String.raw`(selector) => {
  const el = document.querySelector(selector);
  return el ? el.tagName.toLowerCase() : null;
}`;

const SCROLL_BY = String.raw`(dy) => { window.scrollBy(0, dy); return Math.round(window.scrollY); }`;

export const PAGE_SCRIPTS = {
  pageText: PAGE_TEXT,
  selectOptions: SELECT_OPTIONS,
  scrollBy: SCROLL_BY,
  tagName: TAG_NAME,
} as const;

/** An expression that calls a page script with a JSON argument. */
export function callScript(script: string, arg?: unknown): string {
  return `(${script})(${arg === undefined ? '' : JSON.stringify(arg)})`;
}

/** The attribute the index script (index-script.ts) writes; actions find elements with it. */
export function elementSelector(index: number): string {
  return `[data-wb-index="${index}"]`;
}
