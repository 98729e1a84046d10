import { describe, expect, it } from 'vitest';
import { callCostUsd, DEFAULT_PRICES, DEFAULT_PRICES_DATE, findPrice } from '../../shared/model/prices';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { addUsage, describeCost, emptyUsage, type TokenUsage } from '../../shared/usage';

const call = (prompt: number, completion: number, cached: number, extra: Partial<TokenUsage> = {}): TokenUsage => ({
  promptTokens: prompt,
  completionTokens: completion,
  cachedPromptTokens: cached,
  totalTokens: prompt + completion,
  requests: 1,
  ...extra,
});

describe('price table', () => {
  it('has a date and prices the well-known OpenAI names, dated snapshots by their base name', () => {
    expect(DEFAULT_PRICES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(findPrice('openai', 'gpt-4o-mini', undefined)).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(findPrice('openai', 'gpt-4o-mini-2024-07-18', undefined)).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(findPrice('openai', 'gpt-4o-2024-08-06', undefined)).toEqual(DEFAULT_PRICES['gpt-4o']);
    expect(findPrice('openai', 'llama3.1:8b', undefined)).toBeUndefined();
    expect(findPrice('scripted', 'gpt-4o', undefined)).toBeUndefined();
  });

  it('lets the workspace override a default and price its own names (provider:model first)', () => {
    const own = { 'gpt-4o': { inputPerMTok: 1, outputPerMTok: 2 }, 'scripted:demo': { inputPerMTok: 3, outputPerMTok: 4 }, demo: { inputPerMTok: 5, outputPerMTok: 6 } };
    expect(findPrice('openai', 'gpt-4o', own)).toEqual({ inputPerMTok: 1, outputPerMTok: 2 });
    expect(findPrice('scripted', 'demo', own)).toEqual({ inputPerMTok: 3, outputPerMTok: 4 });
    expect(findPrice('openai', 'demo', own)).toEqual({ inputPerMTok: 5, outputPerMTok: 6 });
  });

  it('bills uncached prompt, cached prompt and completion tokens at their prices', () => {
    const price = { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 };
    expect(callCostUsd(call(1000, 100, 400), price)).toBeCloseTo((600 * 2 + 400 * 0.5 + 100 * 8) / 1e6, 12);
    // No cached price: cached tokens cost what input tokens cost.
    expect(callCostUsd(call(1000, 100, 400), { inputPerMTok: 2, outputPerMTok: 8 })).toBeCloseTo((1000 * 2 + 100 * 8) / 1e6, 12);
  });

  it('sums costs only while every call has one, and names the models without a price', () => {
    const priced = addUsage(addUsage(emptyUsage(), call(10, 1, 0, { costUsd: 0.25 })), call(10, 1, 0, { costUsd: 0.5 }));
    expect(priced.costUsd).toBeCloseTo(0.75, 12);
    expect(describeCost(priced)).toBe('$0.7500');
    const mixed = addUsage(priced, call(10, 1, 0, { unpricedModels: ['openai:local'] }));
    expect(mixed.costUsd).toBeUndefined();
    expect(mixed.unpricedModels).toEqual(['openai:local']);
    expect(describeCost(mixed)).toBe('no price for openai:local');
    expect(describeCost(emptyUsage())).toBeUndefined();
  });

  it('rejects a bad price in crewdeck.json naming the field', () => {
    const result = WorkspaceSettingsSchema.safeParse({ version: 1, prices: { m: { inputPerMTok: -1, outputPerMTok: 1 } } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]!.path).toEqual(['prices', 'm', 'inputPerMTok']);
  });

  it('refuses a price so large that the spend of a run would be Infinity (issue 26), naming the field and the cap', () => {
    const result = WorkspaceSettingsSchema.safeParse({ version: 1, prices: { m: { inputPerMTok: 1, outputPerMTok: 1e308 } } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]!.path).toEqual(['prices', 'm', 'outputPerMTok']);
    expect(result.error?.issues[0]!.message).toBe('at most 1,000,000 US dollars per million tokens');
    const highest = WorkspaceSettingsSchema.parse({ version: 1, prices: { m: { inputPerMTok: 1e6, outputPerMTok: 1e6 } } });
    expect(Number.isFinite(callCostUsd({ promptTokens: 1e9, cachedPromptTokens: 0, completionTokens: 1e9 }, highest.prices!.m!))).toBe(true);
  });
});
