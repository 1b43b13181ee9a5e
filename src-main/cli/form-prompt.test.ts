import { describe, expect, it } from 'vitest';
import { askForm } from './form-prompt';

const form = {
  server: 'everything',
  message: 'Who are you?',
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      age: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
      pet: { type: 'string', enum: ['cat', 'dog'] },
    },
    required: ['name'],
  },
};

function typing(lines: string[]) {
  const prompts: string[] = [];
  return {
    prompts,
    ask: async (prompt: string) => {
      prompts.push(prompt);
      return lines.shift() ?? '';
    },
  };
}

describe('askForm (an MCP elicitation at the terminal)', () => {
  it('asks field by field, re-asks a value that does not fit, keeps defaults', async () => {
    const out: string[] = [];
    const t = typing(['', 'Ada', '500', '', 'cow', 'dog']);
    const answer = await askForm(form, t.ask, { write: (s) => out.push(s) });
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 42, pet: 'dog' } });
    expect(out.join('')).toContain('Name is required');
    expect(out.join('')).toContain('age must be at most 100');
    expect(out.join('')).toContain('pet must be one of: cat, dog');
    expect(t.prompts[0]).toContain('Name (string, required)');
  });

  it('declines or cancels the whole form', async () => {
    expect(await askForm(form, typing(['!decline']).ask, { write: () => 0 })).toEqual({
      action: 'decline',
    });
    expect(await askForm(form, typing(['Ada', '!cancel']).ask, { write: () => 0 })).toEqual({
      action: 'cancel',
    });
  });
});
