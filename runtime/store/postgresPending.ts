import type { BudgetPending } from '../../shared/model/budget';
import type { HumanPending } from '../human/humanPause';
import type { TeamPending } from './postgresRunWrites';

interface SavedFeedback {
  requestId: string;
  methodId: string;
  ask: { message: string; output?: string; outcomes?: string[]; defaultOutcome?: string };
}

/**
 * What a stopped run waits for, read from its checkpoint (a flow's or a crew's): the first feedback
 * request of a flow, a crew's task review or tool approval, or the budget cap either reached. Undefined
 * when it waits for nothing.
 */
export function pendingOfCheckpoint(checkpoint: unknown): TeamPending | undefined {
  if (checkpoint === null || typeof checkpoint !== 'object') return undefined;
  const cp = checkpoint as { kind?: string; pending?: unknown; budgetPending?: BudgetPending; humanPending?: HumanPending };
  if (cp.kind === 'crew' && cp.humanPending) return humanPendingView(cp.humanPending);
  const budget = cp.kind === 'crew' ? (cp.pending as BudgetPending | undefined) : cp.budgetPending;
  if (budget) {
    const spent = budget.which === 'maxTokens' ? `${budget.spent} tokens of ${budget.limit}` : `$${budget.spent.toFixed(6)} of $${budget.limit}`;
    return {
      requestId: budget.requestId,
      kind: 'budget',
      prompt: `the budget is reached (${spent}); resume with a higher ${budget.which === 'maxTokens' ? 'maxTokens' : 'maxCostUsd'}`,
      ...(budget.stepId ? { methodId: budget.stepId } : {}),
    };
  }
  const first = Array.isArray(cp.pending) ? (cp.pending[0] as SavedFeedback | undefined) : undefined;
  if (!first) return undefined;
  return {
    requestId: first.requestId,
    kind: 'feedback',
    prompt: first.ask.message,
    methodId: first.methodId,
    ...(first.ask.output !== undefined ? { output: first.ask.output } : {}),
    ...(first.ask.outcomes ? { outcomes: first.ask.outcomes } : {}),
    ...(first.ask.defaultOutcome ? { defaultOutcome: first.ask.defaultOutcome } : {}),
  };
}

/** A crew's question as the API shows it (the asking agent's conversation stays in the checkpoint). */
function humanPendingView(p: HumanPending): TeamPending {
  return {
    requestId: p.requestId,
    kind: p.kind,
    prompt: p.prompt,
    agentRole: p.agentRole,
    ...(p.taskId !== undefined ? { taskId: p.taskId } : {}),
    ...(p.kind === 'task_review' ? { output: p.output } : { tool: p.tool, args: p.args }),
  };
}
