import type { Budget, BudgetLimitName } from '../../shared/model/budget';
import type { TokenUsage } from '../../shared/usage';
import type { Span } from '../events/span';
import { BudgetReached } from '../errors';

/** The caps of a run: the document's `budget`, each field replaced by the caller's (CLI flags, a resume). */
export function mergeBudget(...budgets: (Budget | undefined)[]): Budget | undefined {
  const merged: Budget = {};
  for (const b of budgets) {
    if (b?.maxTokens !== undefined) merged.maxTokens = b.maxTokens;
    if (b?.maxCostUsd !== undefined) merged.maxCostUsd = b.maxCostUsd;
  }
  return merged.maxTokens === undefined && merged.maxCostUsd === undefined ? undefined : merged;
}

/** The cap `usage` has reached, if any (cost: calls with no price count as $0). */
export function reachedCap(budget: Budget | undefined, usage: TokenUsage): { which: BudgetLimitName; spent: number; limit: number } | undefined {
  if (budget?.maxTokens !== undefined && usage.totalTokens >= budget.maxTokens) return { which: 'maxTokens', spent: usage.totalTokens, limit: budget.maxTokens };
  const cost = usage.costUsd ?? 0;
  if (budget?.maxCostUsd !== undefined && cost >= budget.maxCostUsd) return { which: 'maxCostUsd', spent: cost, limit: budget.maxCostUsd };
  return undefined;
}

/** Checked before each model call of a run: throws BudgetReached (after a `budget.reached` event) once a cap is reached. */
export class BudgetGuard {
  constructor(
    readonly budget: Budget | undefined,
    private readonly usage: () => TokenUsage,
  ) {}

  check(span: Span, where: { taskId?: string; methodId?: string; agentRole?: string }): void {
    const reached = reachedCap(this.budget, this.usage());
    if (!reached) return;
    span.child().emit({ type: 'budget.reached', ...reached, ...where });
    throw new BudgetReached(reached.which, reached.spent, reached.limit, where.taskId ?? where.methodId);
  }
}

/** `resume` of a run paused at its budget, with no cap above what it has spent. */
export class BudgetNotRaised extends Error {
  override name = 'BudgetNotRaised';
  constructor(runId: string, which: BudgetLimitName, spent: number, limit: number) {
    const flag = which === 'maxTokens' ? `--max-tokens N (N over ${spent})` : `--max-cost X (X over ${spent.toFixed(6)})`;
    super(`run ${runId} paused at its budget (${which} ${limit}, spent ${which === 'maxTokens' ? spent : `$${spent.toFixed(6)}`}); resume it with a higher cap: ${flag}`);
  }
}
