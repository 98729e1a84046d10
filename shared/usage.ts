import { z } from 'zod';

/** Token usage as reported by model servers, summed over calls. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  totalTokens: number;
  requests: number;
}

export const TokenUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  cachedPromptTokens: z.number(),
  totalTokens: z.number(),
  requests: z.number(),
}) satisfies z.ZodType<TokenUsage>;

export function emptyUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, totalTokens: 0, requests: 0 };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedPromptTokens: a.cachedPromptTokens + b.cachedPromptTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    requests: a.requests + b.requests,
  };
}
