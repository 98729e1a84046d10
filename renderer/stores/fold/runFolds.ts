import type { EventFamily, RuntimeEvent } from '../../../shared/events';
import { AGENT_FOLD, DELEGATION_FOLD } from './agentFold';
import type { FamilyFold } from './eventFold';
import { FLOW_FOLD } from './flowFold';
import { HUMAN_FOLD } from './humanFold';
import { EMBEDDING_FOLD, LLM_FOLD } from './llmFold';
import { KNOWLEDGE_FOLD, MEMORY_FOLD } from './memoryFold';
import { BUDGET_FOLD, RUN_FOLD, TEST_FOLD, TRAINING_FOLD } from './runFold';
import type { RunDraft } from './runDraft';
import { PLANNING_FOLD, TASK_FOLD } from './taskFold';
import { GUARDRAIL_FOLD, TOOL_FOLD } from './toolFold';

/** Every event family's folds into the run view: a family missing here, or an event missing in its family's folds, does not compile. */
export const RUN_FOLDS = {
  run: RUN_FOLD,
  budget: BUDGET_FOLD,
  training: TRAINING_FOLD,
  test: TEST_FOLD,
  flow: FLOW_FOLD,
  planning: PLANNING_FOLD,
  task: TASK_FOLD,
  memory: MEMORY_FOLD,
  knowledge: KNOWLEDGE_FOLD,
  agent: AGENT_FOLD,
  llm: LLM_FOLD,
  embedding: EMBEDDING_FOLD,
  tool: TOOL_FOLD,
  delegation: DELEGATION_FOLD,
  guardrail: GUARDRAIL_FOLD,
  human: HUMAN_FOLD,
} satisfies { [F in EventFamily]: FamilyFold<F> };

type AnyFold = ((d: RunDraft, e: RuntimeEvent) => void) | null;
// The registry by event type. The fold registered for a type takes that type's events, which TypeScript
// cannot follow through a lookup by `e.type`: the one place the correlation is asserted.
const BY_TYPE = new Map<string, AnyFold>(Object.values(RUN_FOLDS).flatMap((family) => Object.entries(family) as [string, AnyFold][]));

/** Folds one event into the draft by its family's registered fold (events of unknown types change nothing but the counters). */
export function foldEvent(d: RunDraft, e: RuntimeEvent): void {
  BY_TYPE.get(e.type)?.(d, e);
}
