import { emptyUsage, type TokenUsage } from '../../shared/usage';

/** A stored `token_usage` column (JSON, or NULL for none), with every counter present. */
export function parseUsage(text: string | null): TokenUsage {
  return text === null ? emptyUsage() : { ...emptyUsage(), ...(JSON.parse(text) as Partial<TokenUsage>) };
}
