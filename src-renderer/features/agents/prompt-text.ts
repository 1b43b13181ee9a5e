/**
 * What the prompt editor shows of a template: the text cut into plain parts and
 * `{{variables}}` (known ones, and names that are not variables: an error on save).
 * The same placeholder syntax as the runtime's templates (docs/agents.md).
 */
import { TEMPLATE_VARIABLES } from '@shared/domain/agent-definition';

export type PromptPart =
  | { kind: 'text'; text: string }
  | { kind: 'variable'; text: string; name: string; isKnown: boolean };

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function promptParts(template: string): PromptPart[] {
  const parts: PromptPart[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const start = match.index;
    if (start > at) parts.push({ kind: 'text', text: template.slice(at, start) });
    const name = match[1] ?? '';
    parts.push({
      kind: 'variable',
      text: match[0],
      name,
      isKnown: Object.prototype.hasOwnProperty.call(TEMPLATE_VARIABLES, name),
    });
    at = start + match[0].length;
  }
  if (at < template.length) parts.push({ kind: 'text', text: template.slice(at) });
  return parts;
}

/** Until the host has counted (o200k_base): about four characters a token. */
export function estimatePromptTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
