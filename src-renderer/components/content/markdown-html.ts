/**
 * A model's reply as HTML, from marked's tokens, for Markdown.tsx to set as the inner HTML
 * of one element.
 *
 * Why a string and not React elements: the timeline mounts a screenful of new rows per
 * scrolled frame. Every element and text node React makes gets a JS wrapper carrying
 * React's own properties, and such wrappers outlive V8's young-generation collections
 * until a full collection: in the ui benchmark they were most of what each scavenge had
 * to copy (its pauses were the long tasks). Nodes made by the HTML parser have no wrapper.
 *
 * The model's text is untrusted. Every piece of it is escaped here, in text and in
 * attributes: raw HTML in a reply is shown as text; links are made only for web and mail
 * addresses; images only for data URLs of raster images; code is highlight.js's output
 * (which escapes) or escaped text. No attribute takes anything else from the model but
 * an href, an image's src and alt, and a list's start number.
 */
import type { Token, Tokens } from 'marked';
import { highlight, languageOf } from './highlight';
import { markdownTokens, safeHref, safeImageSrc } from './markdown';

const CACHE_SIZE = 100;
const cache = new Map<string, string>();

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text (or an attribute's value) as HTML that shows exactly it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** The reply's markdown as HTML (cached per text: a row scrolled back in costs nothing). */
export function markdownHtml(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = blocks(markdownTokens(text));
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, html);
  return html;
}

function blocks(tokens: readonly Token[]): string {
  let html = '';
  for (const token of tokens) html += block(token);
  return html;
}

function block(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'def':
      return '';
    case 'heading': {
      const t = token as Tokens.Heading;
      const tag = `h${Math.min(6, Math.max(3, t.depth + 2))}`;
      return `<${tag}>${inline(t.tokens)}</${tag}>`;
    }
    case 'paragraph':
      return `<p>${inline((token as Tokens.Paragraph).tokens)}</p>`;
    case 'text': {
      const t = token as Tokens.Text;
      return `<p>${t.tokens ? inline(t.tokens) : escapeHtml(t.text)}</p>`;
    }
    case 'code': {
      const t = token as Tokens.Code;
      return codeBlock(t.text, languageOf(t.lang?.split(/\s/)[0]));
    }
    case 'blockquote':
      return `<blockquote>${blocks((token as Tokens.Blockquote).tokens)}</blockquote>`;
    case 'list': {
      const t = token as Tokens.List;
      let items = '';
      for (const item of t.items) {
        const box = item.task
          ? `<input type="checkbox" disabled${item.checked ? ' checked' : ''}>`
          : '';
        items += `<li>${box}${listItem(item)}</li>`;
      }
      if (!t.ordered) return `<ul>${items}</ul>`;
      const start = typeof t.start === 'number' ? ` start="${Math.trunc(t.start)}"` : '';
      return `<ol${start}>${items}</ol>`;
    }
    case 'table': {
      const t = token as Tokens.Table;
      let head = '';
      for (const cell of t.header) head += `<th>${inline(cell.tokens)}</th>`;
      let body = '';
      for (const row of t.rows) {
        let cells = '';
        for (const cell of row) cells += `<td>${inline(cell.tokens)}</td>`;
        body += `<tr>${cells}</tr>`;
      }
      return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
    }
    case 'hr':
      return '<hr>';
    case 'html':
      // raw HTML from the model is text, never markup
      return `<p class="md-raw">${escapeHtml((token as Tokens.HTML).raw)}</p>`;
    default:
      return `<p>${escapeHtml(token.raw)}</p>`;
  }
}

/** The same markup as CodeBlock.tsx (wrapped, no line numbers). */
function codeBlock(code: string, language: string | null): string {
  const highlighted = highlight(code, language);
  if (highlighted === null) {
    const lang = language ? ` data-language="${language}"` : '';
    return `<div class="code-block"${lang}><pre class="code-body"><code>${escapeHtml(code)}</code></pre></div>`;
  }
  // language is one highlight.js knows (a fixed name), highlighted is its escaped output
  return `<div class="code-block" data-language="${language}" data-highlighted="true"><pre class="code-body"><code class="hljs language-${language}">${highlighted}</code></pre></div>`;
}

/** A list item's content: tight items hold inline text, loose ones paragraphs. */
function listItem(item: Tokens.ListItem): string {
  if (item.tokens.every((t) => t.type === 'text' || t.type === 'checkbox')) {
    let html = '';
    for (const t of item.tokens) {
      if (t.type === 'checkbox') continue;
      const text = t as Tokens.Text;
      html += text.tokens ? inline(text.tokens) : escapeHtml(text.text);
    }
    return html;
  }
  return blocks(item.tokens.filter((t) => t.type !== 'checkbox'));
}

function inline(tokens: readonly Token[] | undefined): string {
  let html = '';
  for (const token of tokens ?? []) html += inlineToken(token);
  return html;
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case 'text': {
      const t = token as Tokens.Text;
      return t.tokens ? inline(t.tokens) : escapeHtml(t.text);
    }
    case 'escape':
      return escapeHtml((token as Tokens.Escape).text);
    case 'strong':
      return `<strong>${inline((token as Tokens.Strong).tokens)}</strong>`;
    case 'em':
      return `<em>${inline((token as Tokens.Em).tokens)}</em>`;
    case 'del':
      return `<del>${inline((token as Tokens.Del).tokens)}</del>`;
    case 'codespan':
      return `<code>${escapeHtml((token as Tokens.Codespan).text)}</code>`;
    case 'br':
      return '<br>';
    case 'link': {
      const t = token as Tokens.Link;
      const href = safeHref(t.href);
      if (!href) return `<span>${inline(t.tokens)}</span>`;
      const url = escapeHtml(href);
      return `<a href="${url}" target="_blank" rel="noopener noreferrer nofollow" title="${url}">${inline(t.tokens)}</a>`;
    }
    case 'image': {
      const t = token as Tokens.Image;
      const src = safeImageSrc(t.href);
      if (!src) return `<span class="md-image-ref">[image: ${escapeHtml(t.text || t.href)}]</span>`;
      return `<img class="md-image" src="${escapeHtml(src)}" alt="${escapeHtml(t.text)}">`;
    }
    default:
      // inline raw HTML and anything else: the source text, as text
      return escapeHtml(token.raw);
  }
}
