/**
 * Paints the search's matches in the rows on screen with the CSS Custom Highlight API:
 * ranges over the rendered text, so no row re-renders and no markup changes (the
 * virtualized list keeps its speed, and rendered markdown stays intact). The selected
 * row's matches get their own highlight. Rows that mount later are painted on the next
 * frame. Where the API is missing (happy-dom) nothing is painted; the count still works.
 */
import { useEffect, type RefObject } from 'react';

export const SEARCH_HIGHLIGHT = 'wb-search';
export const CURRENT_HIGHLIGHT = 'wb-search-current';

/** Limits the work per frame on a screen full of long rows. */
const MAX_RANGES = 2000;

function registry(): HighlightRegistry | null {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function'
    ? CSS.highlights
    : null;
}

export function useSearchHighlight(container: RefObject<HTMLElement | null>, query: string) {
  useEffect(() => {
    const highlights = registry();
    const root = container.current;
    if (!highlights) return;
    const clear = () => {
      highlights.delete(SEARCH_HIGHLIGHT);
      highlights.delete(CURRENT_HIGHLIGHT);
    };
    const needle = query.trim().toLowerCase();
    if (!root || needle === '') {
      clear();
      return;
    }
    let frame = 0;
    const paint = () => {
      frame = 0;
      const all: Range[] = [];
      const current: Range[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node && all.length < MAX_RANGES;) {
        const text = (node.nodeValue ?? '').toLowerCase();
        let at = text.indexOf(needle);
        const isCurrent = at >= 0 && node.parentElement?.closest('[aria-selected="true"]') !== null;
        while (at >= 0) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + needle.length);
          (isCurrent ? current : all).push(range);
          at = text.indexOf(needle, at + needle.length);
        }
        node = walker.nextNode();
      }
      highlights.set(SEARCH_HIGHLIGHT, new Highlight(...all));
      highlights.set(CURRENT_HIGHLIGHT, new Highlight(...current));
    };
    paint();
    const observer = new MutationObserver(() => {
      if (frame === 0) frame = requestAnimationFrame(paint);
    });
    observer.observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-selected'],
    });
    return () => {
      observer.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
      clear();
    };
  }, [container, query]);
}
