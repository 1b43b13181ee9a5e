/**
 * An MCP server's form (elicitation) at the terminal: each field on its own line with its
 * type, range and choices; Enter keeps the default or leaves an optional field out; a
 * value that does not fit is asked again with the reason. `!decline` or `!cancel` at any
 * field answers the whole form so.
 */
import {
  fieldProblem,
  formFields,
  type ElicitAnswer,
  type FieldValue,
  type FormField,
  type HumanForm,
} from '@shared/elicitation';
import { terminalSafe } from './terminal-text';

type Ask = (prompt: string) => Promise<string>;

export async function askForm(
  form: HumanForm,
  ask: Ask,
  output: { write(text: string): unknown },
): Promise<ElicitAnswer> {
  output.write(
    `\n? MCP server "${terminalSafe(form.server)}" asks: ${terminalSafe(form.message)}\n  (Enter keeps the default; !decline or !cancel answers the whole form)\n`,
  );
  const content: Record<string, FieldValue> = {};
  for (const field of formFields(form.schema)) {
    for (;;) {
      const typed = (await ask(`  ${describeField(field)}: `)).trim();
      if (typed === '!decline') return { action: 'decline' };
      if (typed === '!cancel') return { action: 'cancel' };
      const value = typed === '' ? field.default : parseValue(field, typed);
      const problem = fieldProblem(field, value);
      if (problem === null) {
        if (value !== undefined && value !== '') content[field.name] = value;
        break;
      }
      output.write(`    ${terminalSafe(field.label)} ${problem}\n`);
    }
  }
  return { action: 'accept', content };
}

function describeField(field: FormField): string {
  const facts = [
    field.kind === 'choice' || field.kind === 'choices'
      ? `${field.kind === 'choices' ? 'comma-separated: ' : ''}${(field.choices ?? []).map((c) => (c.label === c.value ? c.value : `${c.value}=${c.label}`)).join(' | ')}`
      : (field.format ?? field.kind),
    field.minimum !== undefined || field.maximum !== undefined
      ? `${field.minimum ?? ''}..${field.maximum ?? ''}`
      : '',
    field.required ? 'required' : '',
    field.default !== undefined ? `default ${String(field.default)}` : '',
  ].filter(Boolean);
  return terminalSafe(`${field.label} (${facts.join(', ')})`);
}

function parseValue(field: FormField, typed: string): FieldValue {
  switch (field.kind) {
    case 'number':
    case 'integer':
      return Number(typed);
    case 'boolean':
      return /^(y|yes|true|1)$/i.test(typed)
        ? true
        : /^(n|no|false|0)$/i.test(typed)
          ? false
          : typed;
    case 'choices':
      return typed
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    default:
      return typed;
  }
}
