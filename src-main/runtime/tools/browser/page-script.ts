/**
 * Code that runs inside the page. It is kept as JavaScript source (not TypeScript
 * functions) because the main-process build has no DOM types, and so the page never sees
 * our bundler's helpers. Each script is an expression taking one JSON argument.
 */

/**
 * Indexes the visible interactive elements of the main frame: marks each with
 * `data-wb-index` (so actions can find it again) and describes it for the model, with
 * how far the page is scrolled (the original lost the pixels above/below).
 */
const INDEX_ELEMENTS = String.raw`(opts) => {
  const SELECTOR = [
    'a[href]', 'button', 'input', 'select', 'textarea', 'summary', 'details',
    '[role="button"]', '[role="link"]', '[role="checkbox"]', '[role="radio"]', '[role="tab"]',
    '[role="menuitem"]', '[role="option"]', '[role="switch"]', '[role="combobox"]',
    '[role="textbox"]', '[role="searchbox"]', '[contenteditable=""]', '[contenteditable="true"]',
    '[onclick]', '[tabindex]:not([tabindex="-1"])'
  ].join(',');
  const ATTRS = ['type', 'name', 'placeholder', 'aria-label', 'title', 'href', 'role', 'alt', 'for'];
  for (const old of document.querySelectorAll('[data-wb-index]')) old.removeAttribute('data-wb-index');
  const clean = (s, max) => {
    const t = String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
    return t.length > max ? t.slice(0, max - 1) + '…' : t;
  };
  const isVisible = (el, rect) => {
    if (rect.width <= 0 || rect.height <= 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) !== 0;
  };
  const viewportHeight = window.innerHeight;
  const elements = [];
  let total = 0;
  for (const el of document.querySelectorAll(SELECTOR)) {
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' && el.type === 'hidden') continue;
    // A control nested in another indexed control (a span role=button inside a link) is
    // the same target for the model: keep only the outer one, except form fields.
    const outer = el.parentElement && el.parentElement.closest(SELECTOR);
    if (outer && !['input', 'select', 'textarea'].includes(tag)) continue;
    const rect = el.getBoundingClientRect();
    if (!isVisible(el, rect)) continue;
    total++;
    if (elements.length >= opts.maxElements) continue;
    const index = elements.length;
    el.setAttribute('data-wb-index', String(index));
    const attributes = {};
    for (const name of ATTRS) {
      const value = el.getAttribute(name);
      if (value) attributes[name] = clean(value, 100);
    }
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      if (el.type === 'checkbox' || el.type === 'radio') attributes.checked = el.checked ? 'true' : 'false';
      else if (el.value) attributes.value = clean(el.value, 100);
    }
    if (el.disabled) attributes.disabled = 'true';
    let text = '';
    if (tag === 'select') {
      const selected = el.options[el.selectedIndex];
      text = selected ? selected.text : '';
    } else if (tag !== 'input') {
      text = el.innerText || el.textContent || '';
    }
    elements.push({
      index,
      tag,
      text: clean(text, 100),
      attributes,
      inViewport: rect.bottom > 0 && rect.top < viewportHeight,
    });
  }
  const root = document.scrollingElement || document.documentElement;
  const above = Math.max(0, Math.round(window.scrollY));
  const below = Math.max(0, Math.round(root.scrollHeight - window.scrollY - viewportHeight));
  return { elements, total, scroll: { above, below, viewportHeight } };
}`;

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
  indexElements: INDEX_ELEMENTS,
  pageText: PAGE_TEXT,
  selectOptions: SELECT_OPTIONS,
  scrollBy: SCROLL_BY,
  tagName: TAG_NAME,
} as const;

/** An expression that calls a page script with a JSON argument. */
export function callScript(script: string, arg?: unknown): string {
  return `(${script})(${arg === undefined ? '' : JSON.stringify(arg)})`;
}

/** The attribute the index script writes; actions find elements with it. */
export function elementSelector(index: number): string {
  return `[data-wb-index="${index}"]`;
}
