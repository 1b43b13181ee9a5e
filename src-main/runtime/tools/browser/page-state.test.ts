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
    expect(text).toContain('... and 3 more elements not listed');
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
