/**
 * Estimated cost of model calls from published list prices (USD per million tokens,
 * input / output) of well-known models, as listed by their providers in 2025. It is an
 * estimate: cached-input discounts, batch prices and long-context surcharges are not
 * modelled, and a model that is not listed has no price (the UI says "price unknown"
 * and how to set one rather than guessing). A profile's own `input_price`/`output_price`,
 * recorded with the run, wins over the list. A model id matches the longest listed name it starts with, followed by the
 * end or a separator (`gpt-4o-2024-08-06` is `gpt-4o`; `gpt-4o` is not `gpt-4`); a
 * provider prefix (`openai/gpt-4o`) is ignored.
 */
import type { TokenUsage } from './domain/agent';

/** [input, output] USD per 1M tokens */
const LIST_PRICES: Record<string, readonly [number, number]> = {
  'gpt-5': [1.25, 10],
  'gpt-5-mini': [0.25, 2],
  'gpt-5-nano': [0.05, 0.4],
  'gpt-4.1': [2, 8],
  'gpt-4.1-mini': [0.4, 1.6],
  'gpt-4.1-nano': [0.1, 0.4],
  'gpt-4o': [2.5, 10],
  'gpt-4o-mini': [0.15, 0.6],
  'gpt-4-turbo': [10, 30],
  'gpt-4': [30, 60],
  'gpt-3.5-turbo': [0.5, 1.5],
  o1: [15, 60],
  'o1-mini': [1.1, 4.4],
  o3: [2, 8],
  'o3-mini': [1.1, 4.4],
  'o4-mini': [1.1, 4.4],
  'claude-opus-4': [15, 75],
  'claude-sonnet-4': [3, 15],
  'claude-3-7-sonnet': [3, 15],
  'claude-3-5-sonnet': [3, 15],
  'claude-3-5-haiku': [0.8, 4],
  'claude-3-opus': [15, 75],
  'claude-3-haiku': [0.25, 1.25],
  'gemini-2.5-pro': [1.25, 10],
  'gemini-2.5-flash': [0.3, 2.5],
  'gemini-2.0-flash': [0.1, 0.4],
  'deepseek-chat': [0.27, 1.1],
  'deepseek-reasoner': [0.55, 2.19],
};

const NAMES_LONGEST_FIRST = Object.keys(LIST_PRICES).sort((x, y) => y.length - x.length);
const SEPARATOR = /[-@:]/;

/** The listed price of a model id, or undefined. */
export function listPriceOf(model: string): readonly [number, number] | undefined {
  const id = model.toLowerCase().replace(/^.*\//, '');
  for (const name of NAMES_LONGEST_FIRST) {
    if (!id.startsWith(name)) continue;
    const next = id.charAt(name.length);
    if (next === '' || SEPARATOR.test(next)) return LIST_PRICES[name];
  }
  return undefined;
}

/**
 * USD for this usage on this model, or null when the model has no price: `own` is the
 * profile's `input_price`/`output_price` as the run recorded them, else the list price.
 */
export function estimateCostUsd(
  model: string,
  usage: TokenUsage,
  own?: readonly [number, number],
): number | null {
  const price = own ?? listPriceOf(model);
  if (!price) return null;
  return (usage.prompt * price[0] + usage.completion * price[1]) / 1_000_000;
}

/** `$1.23`, `$0.0042` for amounts under a cent, `—` when unknown. */
export function formatUsd(value: number | null): string {
  if (value === null) return '—';
  return value > 0 && value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}
