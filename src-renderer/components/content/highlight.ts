/**
 * Syntax highlighting with highlight.js core and the few languages agents write in tool
 * arguments and replies. highlight.js escapes the code it is given: its output is our
 * spans around escaped text, never markup from the model. Results are cached (a row that
 * scrolls back in does not highlight again) and very long code is shown plain, so a row
 * never costs a long task.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('diff', diff);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('typescript', typescript);

const ALIASES: Record<string, string> = {
  py: 'python',
  python3: 'python',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  patch: 'diff',
};

/** Longer code is shown without colours (highlighting it could take tens of ms). */
export const MAX_HIGHLIGHT_CHARS = 20_000;
const CACHE_SIZE = 400;
const cache = new Map<string, string>();

/** The language highlight.js knows under this name (or file extension), or null. */
export function languageOf(name: string | undefined): string | null {
  if (!name) return null;
  const lower = name.toLowerCase().trim();
  const known = ALIASES[lower] ?? lower;
  return hljs.getLanguage(known) ? known : null;
}

/** The language of a file, from its extension. */
export function languageOfPath(path: string): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1];
  return languageOf(ext);
}

/** Highlighted HTML (escaped code in hljs spans), or null: show the code as plain text. */
export function highlight(code: string, language: string | null): string | null {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return null;
  const key = `${language}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let html: string;
  try {
    html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, html);
  return html;
}
