import { z } from 'zod';

/**
 * US dollars per million tokens: capped far above any real price, so that a run's spend stays a finite
 * number (a price of 1e308 made it Infinity, stored and shown as null).
 */
export const MAX_PRICE_PER_MTOK = 1_000_000;
const perMTok = z.number().min(0).max(MAX_PRICE_PER_MTOK, `at most ${MAX_PRICE_PER_MTOK.toLocaleString('en-US')} US dollars per million tokens`);

/** What a model costs, in US dollars per million tokens. */
export const ModelPriceSchema = z.strictObject({
  inputPerMTok: perMTok,
  outputPerMTok: perMTok,
  /** Prompt tokens served from the provider's cache; billed at `inputPerMTok` when absent. */
  cachedInputPerMTok: perMTok.optional(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** `crewdeck.json` `prices`: keyed by model name (`gpt-4o-mini`) or `provider:model`. */
export const PriceTableSchema = z.record(z.string().min(1), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

/**
 * The built-in defaults: list prices of well-known OpenAI-compatible model names, as published by
 * their providers on this date. Prices change; a workspace's `prices` overrides any of them.
 */
export const DEFAULT_PRICES_DATE = '2025-08-15';
export const DEFAULT_PRICES: PriceTable = {
  'gpt-5': { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, cachedInputPerMTok: 0.005, outputPerMTok: 0.4 },
  'gpt-4.1': { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, cachedInputPerMTok: 0.1, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, cachedInputPerMTok: 0.025, outputPerMTok: 0.4 },
  'gpt-4o': { inputPerMTok: 2.5, cachedInputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 },
  'gpt-4-turbo': { inputPerMTok: 10, outputPerMTok: 30 },
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  o3: { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 },
  'o3-mini': { inputPerMTok: 1.1, cachedInputPerMTok: 0.55, outputPerMTok: 4.4 },
  'o4-mini': { inputPerMTok: 1.1, cachedInputPerMTok: 0.275, outputPerMTok: 4.4 },
  'o1': { inputPerMTok: 15, cachedInputPerMTok: 7.5, outputPerMTok: 60 },
};

/**
 * The price of `provider:model`: the workspace's table first (by `provider:model`, then by model name),
 * then the defaults by exact name, then by the longest default name the model extends with a dated or
 * tagged suffix (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`). Undefined when none applies.
 */
export function findPrice(provider: string, model: string, workspace: PriceTable | undefined): ModelPrice | undefined {
  const own = workspace ?? {};
  const has = (table: PriceTable, key: string) => Object.prototype.hasOwnProperty.call(table, key);
  if (has(own, `${provider}:${model}`)) return own[`${provider}:${model}`];
  if (has(own, model)) return own[model];
  if (provider === 'scripted') return undefined;
  if (has(DEFAULT_PRICES, model)) return DEFAULT_PRICES[model];
  const base = Object.keys(DEFAULT_PRICES)
    .filter((name) => model.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  return base === undefined ? undefined : DEFAULT_PRICES[base];
}

/**
 * US dollars for one call: uncached prompt tokens at the input price, cached ones at the cached price,
 * completion tokens at the output price. Cached tokens are part of the prompt tokens (as OpenAI reports them).
 */
export function callCostUsd(usage: { promptTokens: number; cachedPromptTokens: number; completionTokens: number }, price: ModelPrice): number {
  const cached = Math.min(usage.cachedPromptTokens, usage.promptTokens);
  const uncached = usage.promptTokens - cached;
  return (
    (uncached * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok) + usage.completionTokens * price.outputPerMTok) /
    1_000_000
  );
}
