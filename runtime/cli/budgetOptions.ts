import type { Budget } from '../../shared/model/budget';
import { UsageError } from './usage';

/** `--max-tokens N` / `--max-cost X` (run, replay, resume): caps over the document's `budget`. */
export const BUDGET_OPTIONS = {
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
} as const;

export function parseBudgetOptions(values: { 'max-tokens'?: string; 'max-cost'?: string }): Budget | undefined {
  const budget: Budget = {};
  const tokens = values['max-tokens'];
  if (tokens !== undefined) {
    const n = Number(tokens);
    if (!/^\d+$/.test(tokens.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-tokens must be a whole number of tokens above 0, got "${tokens}"`);
    budget.maxTokens = n;
  }
  const cost = values['max-cost'];
  if (cost !== undefined) {
    const x = Number(cost);
    if (cost.trim() === '' || !Number.isFinite(x) || x <= 0) throw new UsageError(`--max-cost must be a number of US dollars above 0, got "${cost}"`);
    budget.maxCostUsd = x;
  }
  return budget.maxTokens === undefined && budget.maxCostUsd === undefined ? undefined : budget;
}
