/**
 * Markdown of model replies as tokens (marked's lexer). Turning them into HTML is ours
 * (markdown-html.ts, which escapes every piece of the model's text), not marked's: raw
 * HTML in a reply stays text and no string of the model's ever becomes markup.
 */
import { lexer, type Token } from 'marked';

/** The text's tokens (not cached: markdown-html.ts keeps the HTML made of them). */
export function markdownTokens(text: string): Token[] {
  try {
    return lexer(text, { gfm: true, breaks: true });
  } catch {
    return [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] }];
  }
}

/** Links the reply may open: web and mail addresses only (no javascript:, data:, file:). */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  return null;
}

/** Images shown inline: data URLs of raster images (the page's CSP allows no others). */
export function safeImageSrc(src: string): string | null {
  const trimmed = src.trim();
  return /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$/i.test(trimmed)
    ? trimmed
    : null;
}
