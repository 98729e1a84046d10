import { describeCost, type TokenUsage } from '../../../../shared/usage';
import { Facts } from './DetailBlocks';

/** Token usage as prompt / completion / cached / total / requests, and its cost (or which model had no price). */
export function UsageFacts({ usage }: { usage: TokenUsage | undefined }) {
  if (!usage) return null;
  const n = (v: number) => v.toLocaleString('en-US');
  return (
    <Facts
      items={[
        ['Prompt tokens', n(usage.promptTokens)],
        ['Completion tokens', n(usage.completionTokens)],
        ['Cached prompt tokens', usage.cachedPromptTokens ? n(usage.cachedPromptTokens) : undefined],
        ['Total tokens', n(usage.totalTokens)],
        ['Requests', n(usage.requests)],
        ['Cost', describeCost(usage)],
      ]}
    />
  );
}
