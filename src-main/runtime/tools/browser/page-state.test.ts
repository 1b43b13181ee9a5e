import { describe, expect, it } from 'vitest';
import { formatElement, formatPageState, type PageState } from './page-state';

const state: PageState = {
  url: 'http://127.0.0.1:8080/list',
  title: 'Products',
  tabs: [
    { id: 0, title: 'Products', url: 'http://127.0.0.1:8080/list', active: true },
    { id: 2, title: '', url: 'about:blank', active: false },
  ],
  elements: [
    { index: 0, tag: 'a', text: 'Next', attributes: { href: '/list?page=2' }, inViewport: true },
    {
      index: 1,
      tag: 'input',
      text: '',
      attributes: { type: 'text', placeholder: 'Say "hi"' },
      inViewport: false,
    },
  ],
  totalElements: 5,
  unlisted: { above: 1, below: 2 },
  scroll: { above: 120, below: 2400, viewportHeight: 800 },
};

describe('page state for the model', () => {
  it('gives URL, title, tabs, elements and the pixels above and below (the original lost those)', () => {
    const text = formatPageState(state);
    expect(text).toContain('Current URL: http://127.0.0.1:8080/list');
    expect(text).toContain('Title: Products');
    expect(text).toContain(
      'Tabs: [0] Products (http://127.0.0.1:8080/list) (active) | [2] (no title) (about:blank)',
    );
    expect(text).toContain('120 pixels above and 2400 pixels below');
    expect(text).toContain('[0]<a href="/list?page=2">Next</a>');
    expect(text).toContain('[1]<input type="text" placeholder="Say &quot;hi&quot;"> (off-screen)');
    expect(text).toContain(
      '... 3 more interactive elements not listed (1 above, 2 below): scroll to list them',
    );
  });

  it('fits a budget by leaving out the elements farthest from the visible area, never cutting a line', () => {
    const elements = Array.from({ length: 60 }, (_, i) => ({
      index: 100 + i,
      tag: 'a',
      text: `Entry ${i}`,
      attributes: { href: `/entry?n=${i}` },
      inViewport: i >= 20 && i < 40,
      position: i < 20 ? ('above' as const) : i < 40 ? ('visible' as const) : ('below' as const),
      distance: i < 20 ? (20 - i) * 30 : i < 40 ? 0 : (i - 39) * 30,
    }));
    const full = formatPageState({ ...state, elements, unlisted: { above: 0, below: 0 } });
    const fitted = formatPageState(
      { ...state, elements, unlisted: { above: 0, below: 0 } },
      full.length - 1500,
    );
    expect(fitted.length).toBeLessThanOrEqual(full.length - 1500);
    const kept = [...fitted.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
    // every visible one is kept, in page order; the farthest went first
    for (let i = 120; i < 140; i++) expect(kept).toContain(i);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    expect(kept).not.toContain(100);
    expect(kept).not.toContain(159);
    const dropped = 60 - kept.length;
    expect(fitted).toMatch(new RegExp(`${dropped} more interactive elements not listed`));
  });

  it('says so when a page has nothing to interact with', () => {
    expect(formatPageState({ ...state, elements: [], totalElements: 0 })).toContain(
      'Interactive elements: none found on this page.',
    );
    expect(
      formatElement({ index: 4, tag: 'button', text: 'Go', attributes: {}, inViewport: true }),
    ).toBe('[4]<button>Go</button>');
  });
});
