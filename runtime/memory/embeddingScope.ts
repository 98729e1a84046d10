import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '../events/span';
import type { UsageMeter } from '../agent/usageMeter';
import type { BudgetGuard } from '../run/budgetGuard';

/**
 * Where an embedding request belongs: the run's meter and budget, and the span (with the task or flow
 * method) it is traced on. The workspace's embedder is shared by every run of a runtime (and memory's
 * store outlives runs), so the run a request is made for is found from the async context: a crew sets
 * it when it starts, a task and a flow method narrow it to themselves.
 */
export interface EmbeddingScope {
  span: Span;
  meter: UsageMeter;
  budget?: BudgetGuard;
  taskId?: string;
  agentRole?: string;
  methodId?: string;
}

const current = new AsyncLocalStorage<EmbeddingScope>();

/** Runs `work` with its embedding requests traced and metered in `scope`. */
export function withEmbeddingScope<T>(scope: EmbeddingScope, work: () => T): T {
  return current.run(scope, work);
}

/** Runs `work` with the current scope narrowed to a span (a task's, a method's); unchanged outside any run. */
export function withinEmbeddingSpan<T>(span: Span, where: Pick<EmbeddingScope, 'taskId' | 'agentRole' | 'methodId'>, work: () => T): T {
  const outer = current.getStore();
  return outer ? current.run({ ...outer, span, ...where }, work) : work();
}

/** The scope of the request being made, if it is made for a run. */
export function currentEmbeddingScope(): EmbeddingScope | undefined {
  return current.getStore();
}
