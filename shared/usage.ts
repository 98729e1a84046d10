import { z } from 'zod';

/** Token usage as reported by model servers, summed over calls. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  totalTokens: number;
  requests: number;
  /**
   * US dollars, from the workspace's price table: present only when every call had a price for its
   * model (a partial sum would understate the bill). Absent is not 0.
   */
  costUsd?: number;
  /** `provider:model` names of calls that had no price (why `costUsd` is absent). */
  unpricedModels?: string[];
}

export const TokenUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  cachedPromptTokens: z.number(),
  totalTokens: z.number(),
  requests: z.number(),
  costUsd: z.number().optional(),
  unpricedModels: z.array(z.string()).optional(),
}) satisfies z.ZodType<TokenUsage>;

export function emptyUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, totalTokens: 0, requests: 0 };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedPromptTokens: a.cachedPromptTokens + b.cachedPromptTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    requests: a.requests + b.requests,
  };
  const unpriced = [...new Set([...(a.unpricedModels ?? []), ...(b.unpricedModels ?? [])])];
  if (unpriced.length > 0) return { ...sum, unpricedModels: unpriced };
  // An empty side (no calls) adds nothing; otherwise both sides need a cost for the sum to have one.
  const cost = isEmpty(a) ? b.costUsd : isEmpty(b) ? a.costUsd : a.costUsd !== undefined && b.costUsd !== undefined ? a.costUsd + b.costUsd : undefined;
  return cost === undefined ? sum : { ...sum, costUsd: cost };
}

function isEmpty(u: TokenUsage): boolean {
  return u.requests === 0 && u.totalTokens === 0 && u.costUsd === undefined;
}

/** "$0.0123", or "no price for <model>" when the usage has no cost; undefined when there were no calls. */
export function describeCost(u: TokenUsage): string | undefined {
  if (u.costUsd !== undefined) return formatUsd(u.costUsd);
  if (u.unpricedModels && u.unpricedModels.length > 0) return `no price for ${u.unpricedModels.join(', ')}`;
  return undefined;
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return `$${usd.toExponential(2)}`;
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
