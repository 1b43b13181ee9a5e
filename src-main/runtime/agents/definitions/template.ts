/**
 * Prompt templates of agent definitions: `{{name}}` (spaces inside the braces allowed)
 * for one of the few documented variables (TEMPLATE_VARIABLES). A name outside that set
 * is an error when the file is loaded, never text the model sees as a placeholder.
 */
import { TEMPLATE_VARIABLES, type TemplateVariable } from '@shared/domain/agent-definition';

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export type TemplateValues = Record<TemplateVariable, string>;

export function isTemplateVariable(name: string): name is TemplateVariable {
  return Object.prototype.hasOwnProperty.call(TEMPLATE_VARIABLES, name);
}

/** Variables a template names that do not exist. */
export function unknownVariables(template: string): string[] {
  const unknown: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!isTemplateVariable(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}

/** The variables a template uses (known ones). */
export function usedVariables(template: string): TemplateVariable[] {
  const used = new Set<TemplateVariable>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (isTemplateVariable(name)) used.add(name);
  }
  return [...used];
}

/** The template with each variable replaced by its value (replacements taken literally). */
export function renderTemplate(template: string, values: Partial<TemplateValues>): string {
  return template.replace(PLACEHOLDER, (whole, raw: string) => {
    const name = raw.trim();
    return isTemplateVariable(name) && values[name] !== undefined ? values[name] : whole;
  });
}

/** `{{tools}}`: one `- NAME` line per tool, `- (none)` when there is none. */
export function toolListValue(names: readonly string[]): string {
  return names.length > 0 ? names.map((n) => `- ${n}`).join('\n') : '- (none)';
}

/** Today in UTC as YYYY-MM-DD. */
export function dateValue(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
