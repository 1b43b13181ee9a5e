/**
 * The page script that indexes interactive elements (kept as JavaScript source, like
 * page-script.ts, because the main-process build has no DOM types).
 *
 * - Indexes are stable: every interactive element gets `data-wb-index` once, numbered in
 *   page order the first time the page is read; later reads keep the numbers and give
 *   elements that appeared since the next free ones. A new document starts again at 0.
 *   So an index the model was given stays valid while the page does not change, wherever
 *   it scrolls, and an element far down can be clicked by its number.
 * - What is listed is what is in and near the visible area (up to `opts.nearPx` above
 *   and below it), visible elements first by distance to the viewport, at most
 *   `opts.maxElements`, then shown in page order. The original listed the first 150
 *   elements of the page wherever it was scrolled (issue 16 item 2).
 * - Counts of the interactive elements left out above and below the listed band tell the
 *   model where to scroll.
 */
export const INDEX_ELEMENTS = String.raw`(opts) => {
  const SELECTOR = [
    'a[href]', 'button', 'input', 'select', 'textarea', 'summary', 'details',
    '[role="button"]', '[role="link"]', '[role="checkbox"]', '[role="radio"]', '[role="tab"]',
    '[role="menuitem"]', '[role="option"]', '[role="switch"]', '[role="combobox"]',
    '[role="textbox"]', '[role="searchbox"]', '[contenteditable=""]', '[contenteditable="true"]',
    '[onclick]', '[tabindex]:not([tabindex="-1"])'
  ].join(',');
  const ATTRS = ['type', 'name', 'placeholder', 'aria-label', 'title', 'href', 'role', 'alt', 'for'];
  const clean = (s, max) => {
    const t = String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
    return t.length > max ? t.slice(0, max - 1) + '…' : t;
  };
  const viewportHeight = window.innerHeight;
  const candidates = [];
  for (const el of document.querySelectorAll(SELECTOR)) {
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' && el.type === 'hidden') continue;
    // A control nested in another indexed control (a span role=button inside a link) is
    // the same target for the model: keep only the outer one, except form fields.
    const outer = el.parentElement && el.parentElement.closest(SELECTOR);
    if (outer && !['input', 'select', 'textarea'].includes(tag)) continue;
    candidates.push(el);
  }
  // Stable numbers: keep the ones given earlier; a duplicate (a cloned node) gets a new one.
  const seen = new Set();
  let next = 0;
  const unnumbered = [];
  for (const el of candidates) {
    const value = el.getAttribute('data-wb-index');
    const n = value === null ? NaN : Number(value);
    if (Number.isInteger(n) && n >= 0 && !seen.has(n)) {
      seen.add(n);
      if (n >= next) next = n + 1;
    } else {
      unnumbered.push(el);
    }
  }
  for (const el of unnumbered) el.setAttribute('data-wb-index', String(next++));

  const nearTop = -opts.nearPx;
  const nearBottom = viewportHeight + opts.nearPx;
  const near = [];
  let above = 0;
  let below = 0;
  for (const el of candidates) {
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) continue;
    if (rect.bottom <= nearTop) { above++; continue; }
    if (rect.top >= nearBottom) { below++; continue; }
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    const distance = rect.bottom <= 0 ? -rect.bottom : rect.top >= viewportHeight ? rect.top - viewportHeight : 0;
    near.push({ el, rect, distance });
  }
  // Closest to the visible area first; what does not fit is counted where it is.
  const byDistance = near.slice().sort((a, b) => a.distance - b.distance);
  const chosen = new Set(byDistance.slice(0, opts.maxElements));
  for (const item of byDistance.slice(opts.maxElements)) {
    if (item.rect.bottom <= 0) above++; else below++;
  }
  const elements = [];
  for (const item of near) {
    if (!chosen.has(item)) continue;
    const el = item.el;
    const tag = el.tagName.toLowerCase();
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
    const rect = item.rect;
    elements.push({
      index: Number(el.getAttribute('data-wb-index')),
      tag,
      text: clean(text, 100),
      attributes,
      inViewport: rect.bottom > 0 && rect.top < viewportHeight,
      position: rect.bottom <= 0 ? 'above' : rect.top >= viewportHeight ? 'below' : 'visible',
    });
  }
  const root = document.scrollingElement || document.documentElement;
  const scrolledAbove = Math.max(0, Math.round(window.scrollY));
  const scrolledBelow = Math.max(0, Math.round(root.scrollHeight - window.scrollY - viewportHeight));
  return {
    elements,
    total: candidates.length,
    unlisted: { above, below },
    scroll: { above: scrolledAbove, below: scrolledBelow, viewportHeight },
  };
}`;
