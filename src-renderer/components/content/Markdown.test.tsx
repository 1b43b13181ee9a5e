import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';
import { CodeBlock } from './CodeBlock';

describe('Markdown (model output is untrusted)', () => {
  it('renders headings, emphasis, lists, tables and highlighted code', () => {
    const { container } = render(
      <Markdown
        text={[
          '## Plan',
          '',
          'I will **fix** the *bug* in `greet.py`:',
          '',
          '1. read it',
          '2. patch it',
          '',
          '| file | lines |',
          '|---|---|',
          '| greet.py | 3 |',
          '',
          '```python',
          'def greet(name):',
          '    return "Hello " + name',
          '```',
        ].join('\n')}
      />,
    );
    expect(container.querySelector('h4')?.textContent).toBe('Plan');
    expect(container.querySelector('strong')?.textContent).toBe('fix');
    expect(container.querySelector('em')?.textContent).toBe('bug');
    expect(container.querySelector('p code')?.textContent).toBe('greet.py');
    expect([...container.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual([
      'read it',
      'patch it',
    ]);
    expect(container.querySelector('td')?.textContent).toBe('greet.py');
    const code = container.querySelector('.code-block')!;
    expect(code.getAttribute('data-language')).toBe('python');
    expect(code.getAttribute('data-highlighted')).toBe('true');
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('def');
    expect(code.textContent).toContain('return "Hello " + name');
  });

  it('shows raw HTML as text and never makes markup, scripts or handlers of it', () => {
    const { container } = render(
      <Markdown
        text={
          'Hi <img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n<div onclick="x()">block</div>\n\n```html\n<b onmouseover=alert(3)>x</b>\n```'
        }
      />,
    );
    expect(container.querySelector('img, script, div[onclick], b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain('<script>');
    expect(container.innerHTML).not.toMatch(/<(img|script|b)\b/);
    const handlers = [...container.querySelectorAll('*')].flatMap((el) =>
      el.getAttributeNames().filter((name) => name.startsWith('on')),
    );
    expect(handlers).toEqual([]);
  });

  it('opens only web and mail links, in a new window without an opener', () => {
    const { container } = render(
      <Markdown
        text={
          '[docs](https://example.com/a) [mail](mailto:a@b.c) [bad](javascript:alert(1)) [bad2](JaVaScRiPt:alert(1)) [data](data:text/html,<b>x</b>) <javascript:alert(4)> [file](file:///etc/passwd)'
        }
      />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a',
      'mailto:a@b.c',
    ]);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toContain('noopener');
    }
    expect(container.textContent).toContain('bad');
    expect(container.innerHTML.toLowerCase()).not.toContain('href="javascript');
  });

  it('shows data-URL raster images inline and other images as a reference', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const { container } = render(
      <Markdown
        text={`![chart](${png}) ![remote](https://example.com/x.png) ![svg](data:image/svg+xml;base64,PHN2Zz4=)`}
      />,
    );
    const images = [...container.querySelectorAll('img')];
    expect(images.map((i) => i.getAttribute('src'))).toEqual([png]);
    expect(container.textContent).toContain('[image: remote]');
    expect(container.textContent).toContain('[image: svg]');
  });

  it('code blocks escape what they highlight and number lines on request', () => {
    const { container } = render(
      <CodeBlock
        code={'x = "<img src=x onerror=alert(1)>"\nprint(x)'}
        language="python"
        hasLineNumbers
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.code-body')?.textContent).toContain('<img src=x');
    expect(container.querySelector('.code-gutter')?.textContent).toBe('1\n2');
    expect(container.querySelector('.code-block')?.className).toContain('is-nowrap');
  });
});
