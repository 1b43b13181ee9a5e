/**
 * Markdown of model replies as tokens (marked's lexer), cached per text. Rendering them
 * is ours (Markdown.tsx): React elements only, so raw HTML in a reply stays text and no
 * string of the model's ever becomes markup.
 */
import { lexer, type Token } from 'marked';

const CACHE_SIZE = 500;
const cache = new Map<string, Token[]>();

export function markdownTokens(text: string): Token[] {
  const hit = cache.get(text);
  if (hit) return hit;
  let tokens: Token[];
  try {
    tokens = lexer(text, { gfm: true, breaks: true });
  } catch {
    tokens = [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] }];
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, tokens);
  return tokens;
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
