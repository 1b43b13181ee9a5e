/**
 * MCP elicitation (`elicitation/create`, form mode): a server asks the user for a few
 * values described by a flat JSON schema (strings with a format, numbers in a range,
 * booleans, single and multiple choices). The runtime, the CLI and the UI share this
 * module: the fields a form shows, and one validation, so what the UI accepts is what
 * the runtime passes on to the server.
 */

/** What `human.requested` carries for an elicitation (absent for `ask_human`). */
export interface HumanForm {
  /** the MCP server that asks */
  server: string;
  /** the server's message, shown above the form */
  message: string;
  /** the server's `requestedSchema` as it sent it */
  schema: Record<string, unknown>;
}

/** The user's answer, sent as the JSON text of `human:answer`'s `answer`. */
export type ElicitAnswer =
  | { action: 'accept'; content: Record<string, FieldValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

export type FieldValue = string | number | boolean | string[];

export interface FormChoice {
  value: string;
  label: string;
}

export interface FormField {
  name: string;
  label: string;
  description?: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  /** `email`, `uri`, `date`, `date-time` for strings */
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  choices?: FormChoice[];
  default?: FieldValue;
}

type Schema = Record<string, unknown>;

function record(value: unknown): Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Schema)
    : {};
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `enum` (+ legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(schema: Schema): FormChoice[] | undefined {
  if (Array.isArray(schema['enum'])) {
    const names = Array.isArray(schema['enumNames']) ? (schema['enumNames'] as unknown[]) : [];
    return (schema['enum'] as unknown[]).map((value, i) => ({
      value: String(value),
      label: str(names[i]) ?? String(value),
    }));
  }
  const options = schema['oneOf'] ?? schema['anyOf'];
  if (!Array.isArray(options)) return undefined;
  return options.map((option) => {
    const o = record(option);
    const value = String(o['const'] ?? '');
    return { value, label: str(o['title']) ?? value };
  });
}

/** The fields of a requested schema, in the order the server listed them. */
export function formFields(schema: Record<string, unknown>): FormField[] {
  const properties = record(schema['properties']);
  const required = new Set(
    Array.isArray(schema['required']) ? (schema['required'] as unknown[]).map(String) : [],
  );
  return Object.entries(properties).map(([name, raw]) => {
    const p = record(raw);
    const type = str(p['type']);
    const choices = type === 'array' ? choicesOf(record(p['items'])) : choicesOf(p);
    const kind: FormField['kind'] =
      type === 'array'
        ? 'choices'
        : choices
          ? 'choice'
          : type === 'number' || type === 'integer' || type === 'boolean'
            ? type
            : 'string';
    const field: FormField = {
      name,
      label: str(p['title']) ?? name,
      kind,
      required: required.has(name),
    };
    const description = str(p['description']);
    if (description) field.description = description;
    const format = str(p['format']);
    if (format) field.format = format;
    for (const key of [
      'minimum',
      'maximum',
      'minLength',
      'maxLength',
      'minItems',
      'maxItems',
    ] as const) {
      const value = num(p[key]);
      if (value !== undefined) field[key] = value;
    }
    if (choices) field.choices = choices;
    const fallback = p['default'];
    if (
      typeof fallback === 'string' ||
      typeof fallback === 'number' ||
      typeof fallback === 'boolean' ||
      (Array.isArray(fallback) && fallback.every((v) => typeof v === 'string'))
    ) {
      field.default = fallback as FieldValue;
    }
    return field;
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function formatProblem(format: string, value: string): string | null {
  switch (format) {
    case 'email':
      return EMAIL.test(value) ? null : 'must be an email address';
    case 'uri':
      try {
        new URL(value);
        return null;
      } catch {
        return 'must be a URI (such as https://example.com)';
      }
    case 'date':
      return DATE.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'must be a date (YYYY-MM-DD)';
    case 'date-time':
      return Number.isNaN(Date.parse(value)) ? 'must be a date and time (ISO 8601)' : null;
    default:
      return null;
  }
}

/** What is wrong with one field's value, or null. */
export function fieldProblem(field: FormField, value: FieldValue | undefined): string | null {
  if (value === undefined || value === '') {
    return field.required ? 'is required' : null;
  }
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum)
        return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum)
        return `must be at most ${field.maximum}`;
      return null;
    }
    case 'choice': {
      if (typeof value !== 'string') return 'must be one of the choices';
      const allowed = field.choices?.map((c) => c.value) ?? [];
      return allowed.includes(value) ? null : `must be one of: ${allowed.join(', ')}`;
    }
    case 'choices': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      const allowed = field.choices?.map((c) => c.value) ?? [];
      const wrong = value.filter((v) => !allowed.includes(v));
      if (wrong.length > 0) return `has ${wrong.join(', ')}, not among: ${allowed.join(', ')}`;
      if (field.minItems !== undefined && value.length < field.minItems)
        return `needs at least ${field.minItems} choice(s)`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `takes at most ${field.maxItems} choice(s)`;
      if (field.required && value.length === 0) return 'is required';
      return null;
    }
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength)
        return `needs at least ${field.minLength} character(s)`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `takes at most ${field.maxLength} character(s)`;
      return field.format ? formatProblem(field.format, value) : null;
    }
  }
}

/** Every field's problem, by field name (empty: the content is valid). */
export function formProblems(
  fields: readonly FormField[],
  content: Record<string, FieldValue | undefined>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const problem = fieldProblem(field, content[field.name]);
    if (problem) problems[field.name] = problem;
  }
  for (const name of Object.keys(content)) {
    if (!fields.some((f) => f.name === name)) problems[name] = 'is not a field of this form';
  }
  return problems;
}

/**
 * Parses and checks the text of an answer to an elicitation: an ElicitAnswer whose
 * accepted content fits the schema. Returns the answer, or the problem in words.
 */
export function parseElicitAnswer(
  schema: Record<string, unknown>,
  text: string,
): { answer: ElicitAnswer } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      problem:
        'The answer to a form must be JSON: {"action":"accept","content":{...}}, {"action":"decline"} or {"action":"cancel"}.',
    };
  }
  const answer = record(value);
  const action = answer['action'];
  if (action === 'decline' || action === 'cancel') return { answer: { action } };
  if (action !== 'accept')
    return { problem: 'The answer\'s "action" must be "accept", "decline" or "cancel".' };
  const content = record(answer['content']) as Record<string, FieldValue | undefined>;
  const problems = formProblems(formFields(schema), content);
  const listed = Object.entries(problems).map(([name, problem]) => `${name} ${problem}`);
  if (listed.length > 0) return { problem: `The form is not valid: ${listed.join('; ')}.` };
  const clean: Record<string, FieldValue> = {};
  for (const [name, v] of Object.entries(content)) if (v !== undefined && v !== '') clean[name] = v;
  return { answer: { action: 'accept', content: clean } };
}
