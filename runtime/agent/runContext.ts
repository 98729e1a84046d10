import type { Span } from '../events/span';
import type { HumanChannel } from '../human/humanChannel';
import type { PolicyGate } from '../tools/policyGate';
import type { UsageMeter } from './usageMeter';
import type { Embedder, RunMemoryAccess } from '../memory/types';
import type { RunKnowledge } from '../knowledge/types';
import type { ActiveSuggestions } from './suggestions';
import type { BudgetGuard } from '../run/budgetGuard';
import type { Recording } from '../offline/recording';

/** What every part of one run shares: where it works, how it is stopped, and its gate and meter. */
export interface RunContext {
  runId: string;
  workspace: string;
  signal: AbortSignal;
  gate: PolicyGate;
  human: HumanChannel;
  meter: UsageMeter;
  newId(prefix: string): string;
  root: Span;
  /** The crew's memory, when it has memory enabled: recalled before each task, written after it. */
  memory?: RunMemoryAccess;
  /** The crew's knowledge sources, ingested: searched before each task. */
  knowledge?: RunKnowledge;
  /** The workspace's embedder (settings `memory.embedder`), made on first use; knowledge is embedded with it. */
  embedder?: () => Promise<Embedder>;
  /** Trained suggestions per role (each role's active version), appended to that role's task prompts. */
  suggestions?: ActiveSuggestions;
  /** The run's caps, checked before each model call (and each embedding request). */
  budget?: BudgetGuard;
  /** An offline re-run: knowledge is what this recorded run retrieved (no source is read or fetched). */
  offline?: Recording;
}
