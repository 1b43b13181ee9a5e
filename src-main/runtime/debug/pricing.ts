/**
 * Estimated cost of a run, for `cost:USD` breakpoints. A model's price comes from its
 * profile (`input_price` / `output_price`, US dollars per million tokens) and otherwise
 * from the small table below of OpenAI's published list prices (checked 2025-06; prices
 * change, so the profile keys win). A model with neither has no estimate, and a cost
 * breakpoint on a run that uses it is refused rather than silently never firing.
 */
import type { TokenUsage } from '@shared/domain/agent';

/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
}

export interface Pricing {
  priceOf(model: string): Price | undefined;
  /** the models the run starts with (a cost breakpoint needs a price for each) */
  models: readonly string[];
}

const LIST_PRICES: Record<string, Price> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'o3-mini': { input: 1.1, output: 4.4 },
  o3: { input: 2, output: 8 },
};
/** longest names first, so `gpt-4o-mini-2024-07-18` is priced as gpt-4o-mini, not gpt-4o */
const LIST_NAMES = Object.keys(LIST_PRICES).sort((a, b) => b.length - a.length);

/** The list price of a model name or a dated variant of it (`gpt-4o-2024-08-06`). */
export function listPrice(model: string): Price | undefined {
  const name = model.toLowerCase();
  const match = LIST_NAMES.find((n) => name === n || name.startsWith(`${n}-`));
  return match ? LIST_PRICES[match] : undefined;
}

export function costOf(usage: TokenUsage, price: Price): number {
  return (usage.prompt * price.input + usage.completion * price.output) / 1_000_000;
}

/** Pricing from the run's profiles (their own prices first), then the list. */
export function createPricing(profiles: readonly { model: string; price?: Price }[]): Pricing {
  const own = new Map<string, Price>();
  for (const p of profiles) if (p.price) own.set(p.model, p.price);
  return {
    // A provider may answer with a dated name (`gpt-4o-2024-08-06` for `gpt-4o`).
    priceOf: (model) =>
      own.get(model) ??
      [...own].find(([name]) => model.startsWith(`${name}-`))?.[1] ??
      listPrice(model),
    models: [...new Set(profiles.map((p) => p.model))],
  };
}
