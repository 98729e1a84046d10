import { callCostUsd, findPrice, type PriceTable } from '../../shared/model/prices';
import type { TokenUsage } from '../../shared/usage';
import { currentEmbeddingScope } from './embeddingScope';

/** What an embedder tells about each request it makes (OpenAIEmbedder's `observer`). */
export interface EmbeddingObserver {
  /** Before a request: throws BudgetReached when the run's budget has no room left (the request is not made). */
  before(): void;
  /** After a request answered: `promptTokens` as the server reported them (undefined when it did not). */
  after(call: { model: string; texts: number; chars: number; promptTokens?: number; durationMs: number }): void;
}

/** Characters per token, for servers that report no usage (a rough, English-text figure). */
const CHARS_PER_TOKEN = 4;

/**
 * Meters an OpenAI-compatible embedder's requests into the run they are made for (embeddingScope.ts):
 * the run's budget is checked before each one, like a model call's; after it, its tokens and cost (the
 * model's price in `prices`, else the built-in ones) go to the run's meter and an `embedding.completed`
 * event (a one-event span) goes under the scope's span. Requests made outside any run (the CLI's knowledge commands) are not traced.
 */
export function embeddingMeter(prices: PriceTable | undefined): EmbeddingObserver {
  return {
    before() {
      const scope = currentEmbeddingScope();
      scope?.budget?.check(scope.span, { taskId: scope.taskId, methodId: scope.methodId, agentRole: scope.agentRole });
    },
    after(call) {
      const scope = currentEmbeddingScope();
      if (!scope) return;
      const estimated = call.promptTokens === undefined;
      const tokens = call.promptTokens ?? Math.ceil(call.chars / CHARS_PER_TOKEN);
      const usage = embeddingUsage(call.model, tokens, prices);
      scope.meter.add(usage, scope.taskId, scope.agentRole);
      // A one-event span of its own under the scope's span (like a blocked tool call).
      scope.span.child().emit({
        type: 'embedding.completed',
        model: `openai:${call.model}`,
        texts: call.texts,
        usage,
        durationMs: Math.round(call.durationMs),
        ...(scope.taskId !== undefined ? { taskId: scope.taskId } : {}),
        ...(scope.agentRole !== undefined ? { agentRole: scope.agentRole } : {}),
        ...(scope.methodId !== undefined ? { methodId: scope.methodId } : {}),
        ...(estimated ? { tokensEstimated: true } : {}),
      });
    },
  };
}

/** One embedding request's usage: its tokens are prompt tokens, priced at the model's input price. */
export function embeddingUsage(model: string, tokens: number, prices: PriceTable | undefined): TokenUsage {
  const usage: TokenUsage = { promptTokens: tokens, completionTokens: 0, cachedPromptTokens: 0, totalTokens: tokens, requests: 1 };
  const price = findPrice('openai', model, prices);
  return price === undefined ? { ...usage, unpricedModels: [`openai:${model}`] } : { ...usage, costUsd: callCostUsd(usage, price) };
}
