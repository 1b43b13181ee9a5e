import { describe, expect, it } from 'vitest';
import { formFields, parseElicitAnswer } from './elicitation';

const schema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    when: { type: 'string', format: 'date' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Wonder Woman' },
      ],
    },
    fish: { type: 'array', minItems: 1, items: { anyOf: [{ const: 'tuna' }, { const: 'trout' }] } },
    agree: { type: 'boolean' },
  },
  required: ['email'],
};

describe('MCP elicitation forms', () => {
  it('describes the fields by type, with titled choices', () => {
    const fields = formFields(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['email', 'string', true],
      ['when', 'string', false],
      ['hero', 'choice', false],
      ['fish', 'choices', false],
      ['agree', 'boolean', false],
    ]);
    expect(fields[2]!.choices).toEqual([
      { value: 'h1', label: 'Superman' },
      { value: 'h2', label: 'Wonder Woman' },
    ]);
  });

  it('accepts what fits, names every field that does not, and takes decline and cancel', () => {
    expect(
      parseElicitAnswer(
        schema,
        JSON.stringify({ action: 'accept', content: { email: 'a@b.co', fish: ['tuna'] } }),
      ),
    ).toEqual({ answer: { action: 'accept', content: { email: 'a@b.co', fish: ['tuna'] } } });
    expect(
      parseElicitAnswer(
        schema,
        JSON.stringify({
          action: 'accept',
          content: { email: 'nope', when: '2024-13-45', hero: 'h9', fish: [], extra: 1 },
        }),
      ),
    ).toEqual({
      problem:
        'The form is not valid: email must be an email address; when must be a date (YYYY-MM-DD); hero must be one of: h1, h2; fish needs at least 1 choice(s); extra is not a field of this form.',
    });
    expect(parseElicitAnswer(schema, '{"action":"decline"}')).toEqual({
      answer: { action: 'decline' },
    });
    expect(parseElicitAnswer(schema, 'yes')).toMatchObject({ problem: /must be JSON/ });
  });
});
