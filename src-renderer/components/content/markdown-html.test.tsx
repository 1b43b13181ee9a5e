import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { escapeHtml, markdownHtml } from './markdown-html';
import { Markdown } from './Markdown';

/** The HTML as the browser would build it, to look at elements and attributes. */
function parse(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = html;
  return box;
}

const ATTACK = `<img src=x onerror="alert(1)">"'&`;

describe('markdownHtml (the model writes what it likes)', () => {
  it('escapes the text in every place a reply can put it', () => {
    const text = [
      `# ${ATTACK}`,
      '',
      `para ${ATTACK} **bold ${ATTACK}** \`code ${ATTACK}\``,
      '',
      `- item ${ATTACK}`,
      '',
      `| h ${ATTACK} |`,
      '|---|',
      `| c ${ATTACK} |`,
      '',
      '```',
      `plain ${ATTACK}`,
      '```',
      '',
      '```python',
      `x = "${ATTACK}"`,
      '```',
      '',
      `[link ${ATTACK}](https://example.com/a) ![alt ${ATTACK}](https://example.com/x.png)`,
      '',
      `<div onclick="x()">${ATTACK}</div>`,
    ].join('\n');
    const box = parse(markdownHtml(text));
    expect(box.querySelector('img, script, div[onclick]')).toBeNull();
    const handlers = [...box.querySelectorAll('*')].flatMap((el) =>
      el.getAttributeNames().filter((name) => name.startsWith('on')),
    );
    expect(handlers).toEqual([]);
    // every place shows the text as written
    for (const selector of ['h3', 'p', 'strong', 'p code', 'li', 'th', 'td', 'a']) {
      expect(box.querySelector(selector)?.textContent, selector).toContain(ATTACK);
    }
    expect(box.querySelector('.code-block:not([data-language]) code')?.textContent).toBe(
      `plain ${ATTACK}`,
    );
    expect(box.querySelector('.code-block[data-language="python"] .hljs')?.textContent).toBe(
      `x = "${ATTACK}"`,
    );
    expect(box.textContent).toContain(`[image: alt ${ATTACK}]`);
    expect(box.querySelector('.md-raw')?.textContent).toContain('<div onclick="x()">');
  });

  it('keeps a quote in a link or an image from closing its attribute', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const box = parse(
      markdownHtml(
        `[a](<https://example.com/"onmouseover="alert(1)>) ![x" onerror="alert(2)](${png})`,
      ),
    );
    const link = box.querySelector('a')!;
    expect(link.getAttributeNames().sort()).toEqual(['href', 'rel', 'target', 'title']);
    expect(link.getAttribute('href')).toContain('"onmouseover="');
    const image = box.querySelector('img')!;
    expect(image.getAttributeNames().sort()).toEqual(['alt', 'class', 'src']);
    expect(image.getAttribute('alt')).toBe('x" onerror="alert(2)');
  });

  it('numbers an ordered list from its start and shows task boxes', () => {
    const box = parse(markdownHtml('3. three\n4. four\n\n- [x] done\n- [ ] open'));
    expect(box.querySelector('ol')?.getAttribute('start')).toBe('3');
    const boxes = [...box.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it('escapes the five characters that matter in HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});

describe('Markdown', () => {
  it('a click on a link does not select the row it is in; a click elsewhere does', () => {
    const select = vi.fn();
    const { container } = render(
      <div onClick={select}>
        <Markdown text="see [the docs](https://example.com/docs) here" />
      </div>,
    );
    fireEvent.click(container.querySelector('a')!);
    expect(select).not.toHaveBeenCalled();
    fireEvent.click(container.querySelector('p')!);
    expect(select).toHaveBeenCalledTimes(1);
  });
});
