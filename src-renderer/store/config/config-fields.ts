/**
 * The fields of the config editor and their inline validation. The ranges mirror the
 * main process's config schema (which validates again on save and has the last word);
 * checking here lets the editor say what is wrong while the user types.
 */
import {
  CONFIG_API_TYPES,
  CONFIG_TEXT_REPLY_POLICIES,
  CONFIG_TOOL_CHOICES,
  type AgentSettingKey,
  type LlmSettingKey,
} from '@shared/ipc';

export type FieldKey = LlmSettingKey | AgentSettingKey;

export interface FieldSpec {
  key: FieldKey;
  group: 'llm' | 'settings';
  label: string;
  kind: 'text' | 'url' | 'int' | 'number' | 'enum' | 'bool';
  options?: readonly string[];
  min?: number;
  max?: number;
  maxLength?: number;
  /**
   * What an empty input means (max_concurrency: "no cap"), shown as the placeholder; a
   * field with one sends an empty input as null, which removes the key from the section.
   */
  emptyMeans?: string;
  help: string;
  isAdvanced?: boolean;
}

export const FIELD_SPECS: readonly FieldSpec[] = [
  {
    key: 'model',
    group: 'llm',
    label: 'Model',
    kind: 'text',
    maxLength: 200,
    help: 'The model name the endpoint expects, e.g. gpt-4o.',
  },
  {
    key: 'base_url',
    group: 'llm',
    label: 'Base URL',
    kind: 'url',
    help: 'An OpenAI-compatible endpoint, e.g. https://api.openai.com/v1.',
  },
  {
    key: 'api_type',
    group: 'llm',
    label: 'API type',
    kind: 'enum',
    options: CONFIG_API_TYPES,
    help: 'openai for any OpenAI-compatible server; azure or ollama for those; scripted for the built-in scripted model (demo, tests).',
  },
  {
    key: 'temperature',
    group: 'llm',
    label: 'Temperature',
    kind: 'number',
    min: 0,
    max: 2,
    help: '0 to 2; lower is more deterministic.',
  },
  {
    key: 'max_tokens',
    group: 'llm',
    label: 'Max tokens',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    help: 'Most tokens the model may write per answer.',
  },
  {
    key: 'max_input_tokens',
    group: 'llm',
    label: 'Max input tokens',
    kind: 'int',
    min: 256,
    max: 10_000_000,
    help: 'Per-request context guard: a request larger than this is refused before it is sent.',
  },
  {
    key: 'max_concurrency',
    group: 'llm',
    label: 'Max concurrent calls',
    kind: 'int',
    min: 1,
    max: 1_000,
    emptyMeans: 'no cap',
    help: 'Model calls of this profile at once, across all runs (a batch); more wait their turn. Empty: no cap here (the key is removed).',
  },
  {
    key: 'max_steps',
    group: 'settings',
    label: 'Max steps',
    kind: 'int',
    min: 1,
    max: 100_000,
    help: 'The run ends with outcome max_steps after this many steps.',
  },
  {
    key: 'duplicate_threshold',
    group: 'settings',
    label: 'Duplicate threshold',
    kind: 'int',
    min: 1,
    max: 100,
    help: 'How many repeats of a response count as stuck.',
  },
  {
    key: 'max_messages',
    group: 'settings',
    label: 'Max messages',
    kind: 'int',
    min: 2,
    max: 100_000,
    help: 'Memory window: older turns are no longer sent to the model.',
  },
  {
    key: 'max_observe',
    group: 'settings',
    label: 'Max observe',
    kind: 'int',
    min: 100,
    max: 10_000_000,
    help: 'Tool output longer than this many characters is cut (with a marker).',
  },
  {
    key: 'api_version',
    group: 'llm',
    label: 'API version',
    kind: 'text',
    maxLength: 100,
    help: 'Azure only, e.g. 2024-06-01.',
    isAdvanced: true,
  },
  {
    key: 'stream',
    group: 'llm',
    label: 'Stream responses',
    kind: 'bool',
    help: 'Show text as it is generated.',
    isAdvanced: true,
  },
  {
    key: 'reasoning',
    group: 'llm',
    label: 'Reasoning model',
    kind: 'bool',
    help: 'Sends max_completion_tokens and no temperature, as o1/o3/o4/gpt-5 need (recognised by name anyway). Turn on for a reasoning deployment named otherwise (Azure).',
    isAdvanced: true,
  },
  {
    key: 'timeout',
    group: 'llm',
    label: 'Timeout (s)',
    kind: 'number',
    min: 0.001,
    max: 3600,
    help: 'Per attempt, in seconds.',
    isAdvanced: true,
  },
  {
    key: 'max_retries',
    group: 'llm',
    label: 'Max retries',
    kind: 'int',
    min: 0,
    max: 20,
    help: 'Retries on rate limits, 5xx, timeouts and network errors.',
    isAdvanced: true,
  },
  {
    key: 'input_price',
    group: 'llm',
    label: 'Input price ($/1M tokens)',
    kind: 'number',
    min: 0,
    max: 100_000,
    help: 'US dollars per million input tokens, for cost estimates; 0 uses the list price of a known model.',
    isAdvanced: true,
  },
  {
    key: 'output_price',
    group: 'llm',
    label: 'Output price ($/1M tokens)',
    kind: 'number',
    min: 0,
    max: 100_000,
    help: 'US dollars per million output tokens; 0 uses the list price of a known model.',
    isAdvanced: true,
  },
  {
    key: 'tool_choice',
    group: 'settings',
    label: 'Tool choice',
    kind: 'enum',
    options: CONFIG_TOOL_CHOICES,
    help: 'auto, required (reprompt when no tool is called) or none.',
    isAdvanced: true,
  },
  {
    key: 'text_reply_policy',
    group: 'settings',
    label: 'Text-only reply',
    kind: 'enum',
    options: CONFIG_TEXT_REPLY_POLICIES,
    help: 'What a text-only reply does in auto mode.',
    isAdvanced: true,
  },
];

export function fieldSpec(key: FieldKey): FieldSpec {
  const spec = FIELD_SPECS.find((f) => f.key === key);
  if (!spec) throw new Error(`Unknown config field ${key}`);
  return spec;
}

/** The raw value typed into a field, as the draft keeps it. */
export type RawValue = string | boolean;

/** A typed value, or the reason the raw input is not valid. */
export function parseFieldValue(
  spec: FieldSpec,
  raw: RawValue,
): { value: string | number | boolean | null } | { error: string } {
  if (spec.kind === 'bool') {
    return typeof raw === 'boolean' ? { value: raw } : { error: 'must be on or off' };
  }
  const text = String(raw).trim();
  switch (spec.kind) {
    case 'text':
      if (spec.key === 'model' && text === '') return { error: 'must not be empty' };
      if (spec.maxLength && text.length > spec.maxLength)
        return { error: `at most ${spec.maxLength} characters` };
      return { value: text };
    case 'url':
      if (!/^https?:\/\/[^\s]+$/i.test(text))
        return { error: 'must be an http(s) URL, e.g. https://api.openai.com/v1' };
      return { value: text };
    case 'enum':
      if (!spec.options?.includes(text))
        return { error: `must be one of ${spec.options?.join(', ')}` };
      return { value: text };
    case 'int':
    case 'number': {
      if (text === '') return spec.emptyMeans ? { value: null } : { error: 'enter a number' };
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: 'must be a number' };
      if (spec.kind === 'int' && !Number.isInteger(n)) return { error: 'must be a whole number' };
      if (spec.min !== undefined && n < spec.min) return { error: `must be at least ${spec.min}` };
      if (spec.max !== undefined && n > spec.max)
        return { error: `must be at most ${spec.max.toLocaleString('en')}` };
      return { value: n };
    }
  }
}

export const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
