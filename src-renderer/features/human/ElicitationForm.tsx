/**
 * An MCP server's elicitation (`human.requested.form`) as a form: one input per field of
 * the requested schema, checked with the validator the runtime uses
 * (src-shared/elicitation.ts), so what this form sends is what the runtime passes on.
 * The answer is the JSON of an ElicitAnswer; a refusal by the host (`invalid_input`:
 * "The form is not valid: name is required; …") is shown next to the fields it names.
 */
import { useMemo, useState, type FormEvent } from 'react';
import {
  formFields,
  formProblems,
  type ElicitAnswer,
  type FieldValue,
  type FormField,
  type HumanForm,
} from '@shared/elicitation';
import { TEST_IDS } from '../../test-ids';

type Values = Record<string, FieldValue | undefined>;

const INVALID_PREFIX = 'The form is not valid: ';

/** The host's refusal split by field ("name is required; integer must be …"), else whole. */
export function refusalByField(
  message: string,
  fields: readonly FormField[],
): { byField: Record<string, string>; rest: string | null } {
  if (!message.startsWith(INVALID_PREFIX)) return { byField: {}, rest: message };
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  const body = message.slice(INVALID_PREFIX.length).replace(/\.$/, '');
  for (const part of body.split('; ')) {
    const field = fields.find((f) => part.startsWith(`${f.name} `));
    if (field) byField[field.name] = part.slice(field.name.length + 1);
    else rest.push(part);
  }
  return { byField, rest: rest.length > 0 ? rest.join('; ') : null };
}

function initialValues(fields: readonly FormField[]): Values {
  const values: Values = {};
  for (const field of fields) {
    if (field.default !== undefined) values[field.name] = field.default;
    else if (field.kind === 'boolean') values[field.name] = false;
  }
  return values;
}

/** The typed text of a number field as a number (a half-typed one stays text: refused). */
function numberValue(text: string): FieldValue | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

export function ElicitationForm({
  form,
  onAnswer,
}: {
  form: HumanForm;
  /** sends the answer's JSON; rejects with the host's message when it is refused */
  onAnswer: (answer: string) => Promise<void>;
}) {
  const fields = useMemo(() => formFields(form.schema), [form.schema]);
  const [values, setValues] = useState<Values>(() => initialValues(fields));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);

  const send = async (answer: ElicitAnswer) => {
    setSending(true);
    setError(null);
    try {
      await onAnswer(JSON.stringify(answer));
    } catch (e) {
      const refusal = refusalByField((e as Error).message, fields);
      setProblems(refusal.byField);
      setError(refusal.rest);
    } finally {
      setSending(false);
    }
  };
  const accept = (event: FormEvent) => {
    event.preventDefault();
    const found = formProblems(fields, values);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setError('Fix the fields marked below, or decline.');
      return;
    }
    const content: Record<string, FieldValue> = {};
    for (const [name, value] of Object.entries(values))
      if (value !== undefined && value !== '') content[name] = value;
    void send({ action: 'accept', content });
  };
  const set = (name: string, value: FieldValue | undefined) => {
    setValues((v) => ({ ...v, [name]: value }));
    setProblems(({ [name]: _fixed, ...others }) => others);
    // the general note only repeats "fix the fields": gone once the user edits one
    setError(null);
  };

  return (
    <form
      className="human-box elicit-form"
      onSubmit={accept}
      aria-label={`Form from MCP server ${form.server}`}
      data-testid={TEST_IDS.elicitForm}
      data-server={form.server}
      noValidate
    >
      <p data-testid={TEST_IDS.humanQuestion}>
        <strong>MCP server {form.server} asks:</strong> {form.message}
      </p>
      <div className="elicit-fields">
        {fields.map((field) => (
          <FieldRow
            key={field.name}
            field={field}
            value={values[field.name]}
            problem={problems[field.name]}
            onChange={(value) => set(field.name, value)}
          />
        ))}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="elicit-actions">
        <button type="submit" data-testid={TEST_IDS.elicitAccept} disabled={isSending}>
          {isSending ? 'Sending…' : 'Accept'}
        </button>
        <button
          type="button"
          data-testid={TEST_IDS.elicitDecline}
          disabled={isSending}
          title="Tell the server you do not want to give this information"
          onClick={() => void send({ action: 'decline' })}
        >
          Decline
        </button>
        <button
          type="button"
          data-testid={TEST_IDS.elicitCancel}
          disabled={isSending}
          title="Dismiss the request without choosing"
          onClick={() => void send({ action: 'cancel' })}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

function FieldRow({
  field,
  value,
  problem,
  onChange,
}: {
  field: FormField;
  value: FieldValue | undefined;
  problem: string | undefined;
  onChange: (value: FieldValue | undefined) => void;
}) {
  const id = `elicit-${field.name}`;
  const common = {
    id,
    'data-testid': TEST_IDS.elicitField,
    'data-field': field.name,
    'data-kind': field.kind,
    'aria-invalid': problem !== undefined,
    'aria-required': field.required,
    ...(field.description ? { 'aria-describedby': `${id}-help` } : {}),
  };
  let input;
  switch (field.kind) {
    case 'boolean':
      input = (
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'number':
    case 'integer':
      input = (
        <input
          type="number"
          {...common}
          step={field.kind === 'integer' ? 1 : 'any'}
          {...(field.minimum !== undefined ? { min: field.minimum } : {})}
          {...(field.maximum !== undefined ? { max: field.maximum } : {})}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(numberValue(e.target.value))}
        />
      );
      break;
    case 'choice':
      input = (
        <select
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        >
          <option value="">{field.required ? 'Choose…' : '(none)'}</option>
          {field.choices?.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'choices': {
      const chosen = Array.isArray(value) ? value : [];
      input = (
        <select
          multiple
          {...common}
          value={chosen}
          onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => o.value))}
        >
          {field.choices?.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
      break;
    }
    default:
      input = (
        <input
          type={
            field.format === 'email'
              ? 'email'
              : field.format === 'uri'
                ? 'url'
                : field.format === 'date'
                  ? 'date'
                  : 'text'
          }
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className={`elicit-field${problem ? ' has-problem' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required && (
          <span className="required-mark" title="required" aria-label="required">
            {' '}
            *
          </span>
        )}
      </label>
      {input}
      {field.description && (
        <span id={`${id}-help`} className="muted elicit-help">
          {field.description}
        </span>
      )}
      {problem && (
        <span
          className="field-error"
          role="alert"
          data-testid={TEST_IDS.elicitFieldError}
          data-field={field.name}
        >
          {field.label} {problem}
        </span>
      )}
    </div>
  );
}
