import { describe, expect, it } from 'vitest';
import { configView } from '../../testing/config-fixture';
import { currentField, isOverridden, issuesToFieldErrors, validateDraft } from './config-draft';
import { fieldSpec, parseFieldValue } from './config-fields';

describe('parseFieldValue (inline validation)', () => {
  it('checks numbers against the schema ranges', () => {
    expect(parseFieldValue(fieldSpec('temperature'), '0.7')).toEqual({ value: 0.7 });
    expect(parseFieldValue(fieldSpec('temperature'), '2.5')).toEqual({
      error: 'must be at most 2',
    });
    expect(parseFieldValue(fieldSpec('max_steps'), '1.5')).toEqual({
      error: 'must be a whole number',
    });
    expect(parseFieldValue(fieldSpec('max_steps'), '')).toEqual({ error: 'enter a number' });
    expect(parseFieldValue(fieldSpec('max_messages'), '1')).toEqual({
      error: 'must be at least 2',
    });
    expect(parseFieldValue(fieldSpec('max_tokens'), 'abc')).toEqual({ error: 'must be a number' });
  });
  it('checks max_concurrency like the schema; empty means no cap', () => {
    const spec = fieldSpec('max_concurrency');
    expect(parseFieldValue(spec, '4')).toEqual({ value: 4 });
    expect(parseFieldValue(spec, ' ')).toEqual({ value: null });
    expect(parseFieldValue(spec, '0')).toEqual({ error: 'must be at least 1' });
    expect(parseFieldValue(spec, '1001')).toEqual({ error: 'must be at most 1,000' });
    expect(parseFieldValue(spec, '2.5')).toEqual({ error: 'must be a whole number' });
  });
  it('checks text, URLs and choices', () => {
    expect(parseFieldValue(fieldSpec('model'), '  ')).toEqual({ error: 'must not be empty' });
    expect(parseFieldValue(fieldSpec('model'), ' gpt-4o-mini ')).toEqual({ value: 'gpt-4o-mini' });
    expect(parseFieldValue(fieldSpec('base_url'), 'ftp://x')).toHaveProperty('error');
    expect(parseFieldValue(fieldSpec('base_url'), 'http://127.0.0.1:8080/v1')).toEqual({
      value: 'http://127.0.0.1:8080/v1',
    });
    expect(parseFieldValue(fieldSpec('api_type'), 'anthropic')).toHaveProperty('error');
    expect(parseFieldValue(fieldSpec('stream'), false)).toEqual({ value: false });
  });
});

describe('validateDraft', () => {
  it('turns a draft into a save request: typed values, null resets, the key edit', () => {
    const { input, errors } = validateDraft(
      {
        fields: { model: 'gpt-4o-mini', temperature: '0.2', max_steps: '12', max_observe: null },
        apiKey: { action: 'set', value: 'sk-new' },
      },
      'swe',
    );
    expect(errors).toEqual({});
    expect(input).toEqual({
      target: 'swe',
      llm: { model: 'gpt-4o-mini', temperature: 0.2 },
      settings: { max_steps: 12, max_observe: null },
      apiKey: { action: 'set', value: 'sk-new' },
    });
  });
  it('sends max_concurrency as a number, and an emptied one as null (the key is removed)', () => {
    expect(validateDraft({ fields: { max_concurrency: '3' } }, 'swe').input).toEqual({
      target: 'swe',
      llm: { max_concurrency: 3 },
    });
    expect(validateDraft({ fields: { max_concurrency: '' } }, 'default').input).toEqual({
      target: 'default',
      llm: { max_concurrency: null },
    });
  });
  it('reports every invalid field and an empty key', () => {
    const { errors } = validateDraft(
      { fields: { temperature: '9', base_url: 'nope' }, apiKey: { action: 'set', value: '' } },
      'manus',
    );
    expect(Object.keys(errors).sort()).toEqual(['api_key', 'base_url', 'temperature']);
  });
  it('never sends run settings for the [llm] defaults page', () => {
    const { input } = validateDraft({ fields: { max_steps: '5', model: 'x' } }, 'default');
    expect(input).toEqual({ target: 'default', llm: { model: 'x' } });
  });
});

describe('provenance', () => {
  it('tells overridden from inherited values per page', () => {
    const config = configView({ swe: 'gpt-4o-mini' });
    const sweModel = currentField(config, 'swe', 'model')!;
    const manusModel = currentField(config, 'manus', 'model')!;
    expect(sweModel.value).toBe('gpt-4o-mini');
    expect(isOverridden(sweModel.source, 'swe', 'swe')).toBe(true);
    expect(isOverridden(manusModel.source, 'manus', null)).toBe(false);
    expect(isOverridden({ kind: 'agent', agent: 'swe' }, 'swe', null)).toBe(true);
    expect(isOverridden({ kind: 'llm' }, 'default', null)).toBe(true);
    expect(isOverridden({ kind: 'llm' }, 'swe', null)).toBe(false);
    expect(currentField(config, 'default', 'max_steps')).toBeNull();
  });
  it('maps save errors from the main process to fields, with the line', () => {
    expect(
      issuesToFieldErrors([
        { path: 'llm.swe.temperature', message: 'Too big', line: 4 },
        { path: 'sandbox.image', message: 'bad' },
      ]),
    ).toEqual({ fields: { temperature: 'Too big (line 4)' }, other: ['sandbox.image: bad'] });
  });
});
