/**
 * Code that runs inside the page. It is kept as JavaScript source (not TypeScript
 * functions) because the main-process build has no DOM types, and so the page never sees
 * our bundler's helpers. Each script is an expression taking one JSON argument.
 */

/**
 * The readable text of the page, for extract_content, and where the visible area begins
 * in it (`viewStart`): the first text the viewport shows is marked for a moment with an
 * invisible token so its place in innerText (which is laid-out text, not the DOM's) is
 * exact. A page not scrolled starts at 0; one scrolled below all its text at its end.
 */
const PAGE_TEXT = String.raw`(marker) => {
  const body = document.body;
  const clean = (t) => t.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  const read = () => clean(body ? (body.innerText || body.textContent || '') : (document.documentElement.textContent || ''));
  if (!body || window.scrollY <= 0) return { text: read(), viewStart: 0 };
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let first = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.nodeValue || !node.nodeValue.trim()) continue;
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.height > 0 && rect.bottom > 0) { first = node; break; }
  }
  if (!first || !first.parentNode) {
    const text = read();
    return { text, viewStart: text.length };
  }
  const mark = document.createTextNode(marker);
  first.parentNode.insertBefore(mark, first);
  let marked;
  try { marked = read(); } finally { mark.remove(); }
  const at = marked.indexOf(marker);
  if (at < 0) return { text: read(), viewStart: 0 };
  return { text: marked.slice(0, at) + marked.slice(at + marker.length), viewStart: at };
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
