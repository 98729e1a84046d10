import { callCostUsd } from '../../shared/model/prices';
import type { TokenUsage } from '../../shared/usage';
import type { ChatModel } from './chatModel';

/** One call's usage with its cost from the model's price, or naming the model as unpriced. */
export function pricedUsage(usage: TokenUsage, model: ChatModel): TokenUsage {
  const { costUsd: _cost, unpricedModels: _unpriced, ...tokens } = usage;
  if (model.price === undefined) return { ...tokens, unpricedModels: [`${model.provider}:${model.model}`] };
  return { ...tokens, costUsd: callCostUsd(usage, model.price) };
}
